// Which addresses a plugin's API lookups may connect to when the bot owner names the host
// (manifest `api.hostOption`, e.g. Confluence's `base_url`): only public unicast addresses, unless
// the operator allows networks or host names (API_LOOKUP_ALLOWED_NETWORKS / _HOSTS), so a webhook
// URL cannot make the server reach its own loopback, the cloud metadata address or the private
// network. The check is made on the address the socket connects to (the `lookup` below), so a
// name that resolves to a public address once and to a private one later (DNS rebinding) is
// caught when it matters.
import dns from "node:dns";
import net from "node:net";

export interface OutboundPolicyConfig {
  /** `http://` sites (on-premises Confluence without TLS) are refused unless this is set. */
  allowHttp: boolean;
  /** CIDR blocks or single addresses that may be reached even though they are not public. */
  allowedNetworks: string[];
  /** Host names (exact, lower case) that may resolve to any address. */
  allowedHosts: string[];
}

export const DEFAULT_OUTBOUND_POLICY: OutboundPolicyConfig = {
  allowHttp: false,
  allowedNetworks: [],
  allowedHosts: [],
};

/** The error a refused lookup gives the socket: its code tells the caller to log a warning. */
export class AddressRefused extends Error {
  readonly code = "EADDRREFUSED_BY_POLICY";
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} is ${address}, which is not a public address`);
  }
}

// Everything that is not public unicast: RFC 6890's special-purpose blocks and multicast.
const NON_PUBLIC_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
// IPv6: only global unicast (2000::/3) is public, less its special blocks (Teredo and the IETF
// block, documentation, 6to4 which embeds any IPv4 address).
const GLOBAL_V6: [string, number] = ["2000::", 3];
const NON_PUBLIC_V6: [string, number][] = [
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
];

const blocks = (list: [string, number][], type: "ipv4" | "ipv6", into = new net.BlockList()) => {
  for (const [address, prefix] of list) into.addSubnet(address, prefix, type);
  return into;
};
const nonPublicV4 = blocks(NON_PUBLIC_V4, "ipv4");
const globalV6 = blocks([GLOBAL_V6], "ipv6");
const nonPublicV6 = blocks(NON_PUBLIC_V6, "ipv6");

/** `::ffff:10.0.0.1` (an IPv4 address written as IPv6) → `10.0.0.1`, so it is judged as IPv4. */
function unmapped(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
}

export function isPublicAddress(address: string): boolean {
  const plain = unmapped(address);
  const family = net.isIP(plain);
  if (family === 4) return !nonPublicV4.check(plain, "ipv4");
  if (family === 6) return globalV6.check(plain, "ipv6") && !nonPublicV6.check(plain, "ipv6");
  return false;
}

/** Parses API_LOOKUP_ALLOWED_NETWORKS entries (`10.20.0.0/16`, `fd00::/8`, `192.168.1.7`); throws on a bad one. */
export function parseNetworks(entries: string[], name = "API_LOOKUP_ALLOWED_NETWORKS"): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefixText, extra] = entry.split("/");
    const family = net.isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!family || extra !== undefined || !/^\d+$/.test(prefixText ?? "0") || prefix > max)
      throw new Error(`${name}: '${entry}' is not an address or a CIDR block`);
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

export class OutboundPolicy {
  private readonly allowed: net.BlockList;
  private readonly hosts: Set<string>;
  readonly allowHttp: boolean;

  constructor(config: OutboundPolicyConfig = DEFAULT_OUTBOUND_POLICY) {
    this.allowed = parseNetworks(config.allowedNetworks);
    this.hosts = new Set(config.allowedHosts.map((h) => h.toLowerCase().replace(/\.$/, "")));
    this.allowHttp = config.allowHttp;
  }

  /** May the socket connect to this address? */
  allowsAddress(address: string): boolean {
    if (isPublicAddress(address)) return true;
    const plain = unmapped(address);
    const family = net.isIP(plain);
    return family !== 0 && this.allowed.check(plain, family === 4 ? "ipv4" : "ipv6");
  }

  /** Is this host name one the operator lets resolve to anything? */
  allowsHostName(host: string): boolean {
    return this.hosts.has(host.toLowerCase().replace(/\.$/, ""));
  }

  /**
   * A socket `lookup` for `host`: resolves it as usual and refuses (with AddressRefused) when any
   * address it gives is not allowed, so the socket connects only to an address checked here.
   */
  lookupFor(host: string): net.LookupFunction {
    const trusted = this.allowsHostName(host);
    return (hostname, options, callback) => {
      dns.lookup(hostname, options, (err, address, family) => {
        if (err) return callback(err, address, family);
        const all = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
        const refused = trusted ? undefined : all.find((a) => !this.allowsAddress(a.address));
        if (refused) return callback(new AddressRefused(host, refused.address), "", 4);
        callback(null, address, family);
      });
    };
  }
}
