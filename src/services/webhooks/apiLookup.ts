// A plugin's API lookups (manifest `api`): details a payload names only by id (a ClickUp task, a
// Notion page, a Confluence page), fetched from the service with the token the bot owner put in
// the URL. Outbound only to one host: the manifest's (`host`) or the site the owner names in a URL
// option (`hostOption`, Confluence's `base_url`, its path prefix kept); over https (http only when
// the operator allows it), GET only, redirects not followed, all lookups of a delivery within one
// time limit, each answer read up to a size cap, and every connection only to an address
// OutboundPolicy allows (public unless the operator allows more; checked on the resolved address).
// A lookup that fails in any way is simply absent (so is an answer that is not a JSON object, or
// whose `okField` is not true): the message then says what the payload alone says. A host the
// policy refuses is logged as a warning (host and reason, never the token); this function does
// not throw.
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Logger } from "pino";
import type { Integration } from "../../webhooks/registry";
import type { ApiSpec } from "../../webhooks/manifest";
import { parseWebhookBody } from "../../webhooks/body";
import { readPath } from "../../webhooks/paths";
import { collectAnswers, planLookups } from "../../webhooks/apiLookupIds";
import { API_LOOKUP_MAX_PATH_CHARS, API_LOOKUP_MAX_RESPONSE_BYTES, API_LOOKUP_TIMEOUT_MS } from "../../limits";
import { AddressRefused, OutboundPolicy } from "./outboundPolicy";

export interface ApiLookupRequest {
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  body: Buffer;
}

/** Where lookups may go (the operator's settings) and where a refused host is reported. */
export interface ApiLookupContext {
  policy: OutboundPolicy;
  logger?: Pick<Logger, "warn">;
}

const DEFAULT_CONTEXT: ApiLookupContext = { policy: new OutboundPolicy() };

/** The site lookups go to: scheme, host (and port), the path prefix every lookup path goes under. */
interface Site {
  protocol: "https:" | "http:";
  /** The host name or address, without IPv6 brackets. */
  host: string;
  port?: number;
  prefix: string;
}

/** The owner's token for the plugin's lookups, when it has an `api` block and the URL gives one. */
export function lookupToken(integration: Integration, query: Record<string, string>): string | undefined {
  const spec = integration.manifest.api;
  return (spec && query[spec.tokenOption]?.trim()) || undefined;
}

/** The lookups' answers by name, or undefined when the plugin has none or no token was given. */
export async function lookupApiDetails(
  integration: Integration,
  request: ApiLookupRequest,
  context: ApiLookupContext = DEFAULT_CONTEXT,
): Promise<Record<string, unknown> | undefined> {
  const spec = integration.manifest.api;
  const token = lookupToken(integration, request.query);
  if (!spec || !token) return undefined;
  const site = siteOf(spec, request.query, context.policy);
  if (site === undefined) return {}; // no site named: nothing to ask
  if ("refused" in site) {
    context.logger?.warn(
      { integration: integration.name, host: site.host, reason: site.refused },
      "API lookup not made: the host is refused",
    );
    return {};
  }
  let payload: unknown;
  try {
    payload = parseWebhookBody(
      integration.manifest,
      request.body,
      request.headers["content-type"] ?? "",
      request.query,
      request.headers,
    );
  } catch {
    return undefined; // the pipeline answers the bad body itself
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), API_LOOKUP_TIMEOUT_MS);
  const refusals = new Set<string>();
  try {
    const headers = {
      ...spec.headers,
      [spec.authHeader]: `${spec.authPrefix ?? ""}${token}`,
      accept: "application/json",
    };
    // One request per distinct path: an id mentioned twice, or a sender who is also mentioned, is asked once.
    const asked = new Map<string, Promise<Record<string, unknown> | undefined>>();
    const ask = (path: string) => {
      let pending = asked.get(path);
      if (pending === undefined) {
        pending = getJson(site, path, headers, context.policy, controller.signal, (reason) =>
          refusals.add(reason),
        ).then((answer) =>
          // Slack answers a failed call with a 200 and `"ok": false`: not an answer either.
          answer !== undefined && (spec.okField === undefined || answer[spec.okField] === true) ? answer : undefined,
        );
        asked.set(path, pending);
      }
      return pending;
    };
    const entries = await Promise.all(
      planLookups(spec, payload).map(async (planned) => {
        const filled = fillPath(planned.path, payload, planned.id === undefined ? undefined : { id: planned.id });
        const path = filled === undefined ? undefined : site.prefix + filled;
        if (path === undefined || path.length > API_LOOKUP_MAX_PATH_CHARS) return [planned, undefined] as const;
        return [planned, await ask(path)] as const;
      }),
    );
    for (const reason of refusals)
      context.logger?.warn(
        { integration: integration.name, host: site.host, reason },
        "API lookup not made: the host is refused",
      );
    return collectAnswers(entries);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The manifest's fixed host, or the site in the owner's URL option (undefined when it is not
 * given), or why that site is refused: not an https URL (http only with API_LOOKUP_ALLOW_HTTP),
 * user info, a query or fragment, or an IP address that is not public and not allowed.
 * (A name is checked when it is resolved, by the socket's lookup.)
 */
export function siteOf(
  spec: ApiSpec,
  query: Record<string, string>,
  policy: OutboundPolicy,
): Site | { refused: string; host: string } | undefined {
  if (spec.host !== undefined) return { protocol: "https:", host: spec.host, prefix: "" };
  const raw = spec.hostOption === undefined ? "" : (query[spec.hostOption]?.trim() ?? "");
  if (raw === "") return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: `${spec.hostOption} is not a URL`, host: "" };
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const refuse = (refused: string) => ({ refused, host });
  if (url.protocol === "http:" && !policy.allowHttp)
    return refuse("http is not allowed (the operator may allow it: API_LOOKUP_ALLOW_HTTP)");
  if (url.protocol !== "https:" && url.protocol !== "http:") return refuse("not an https URL");
  if (url.username !== "" || url.password !== "") return refuse("the URL has user info");
  if (url.search !== "" || url.hash !== "") return refuse("the URL has a query or fragment");
  if (host === "") return refuse("no host");
  if (net.isIP(host) && !policy.allowsAddress(host)) return refuse("not a public address");
  return {
    protocol: url.protocol,
    host,
    ...(url.port ? { port: Number(url.port) } : {}),
    prefix: withoutTrailingSlashes(url.pathname),
  };
}

function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path.slice(0, end);
}

/**
 * The path with each `{field.path}` replaced by the payload's value there, or undefined when one is
 * missing. Before the `?` a value is one path segment, after it one query value: either way it
 * cannot climb out (`../`, `?`, `#`, `/`, `&`, `=` are all encoded).
 */
export function fillPath(template: string, payload: unknown, values?: Record<string, string>): string | undefined {
  let missing = false;
  const fill = (part: string) =>
    part.replace(/\{([^{}]+)\}/g, (_, field: string) => {
      // A per-id lookup's `{id}` is the id found, not a payload field.
      const given = values && Object.hasOwn(values, field.trim()) ? values[field.trim()] : undefined;
      const value = given ?? readPath(payload, field.trim());
      const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
      if (text === "") missing = true;
      return encodeURIComponent(text);
    });
  const at = template.indexOf("?");
  const path = at < 0 ? fill(template) : `${fill(template.slice(0, at))}?${fill(template.slice(at + 1))}`;
  return missing ? undefined : path;
}

/**
 * One GET: the answer when it is a 200 whose body is a JSON object (not an array), else undefined.
 * node's http client follows no redirect (a 3xx is no answer); the socket connects only to an
 * address the policy's lookup accepted (an IP literal was checked by siteOf).
 */
function getJson(
  site: Site,
  path: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  signal: AbortSignal,
  refused: (reason: string) => void,
): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const client = site.protocol === "https:" ? https : http;
    let req: http.ClientRequest;
    try {
      req = client.request({
        protocol: site.protocol,
        hostname: site.host,
        ...(site.port ? { port: site.port } : {}),
        path,
        method: "GET",
        headers,
        // A fresh connection per lookup: a pooled socket would skip the address check.
        agent: false,
        lookup: policy.lookupFor(site.host),
        signal,
      });
    } catch {
      return resolve(undefined);
    }
    req.on("error", (err) => {
      if (err instanceof AddressRefused || (err as { code?: string }).code === "EADDRREFUSED_BY_POLICY")
        refused("resolves to an address that is not public");
      resolve(undefined); // timeout, connection error: the lookup is absent
    });
    req.on("response", (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return resolve(undefined);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > API_LOOKUP_MAX_RESPONSE_BYTES) {
          req.destroy();
          return resolve(undefined);
        }
        chunks.push(chunk);
      });
      res.on("error", () => resolve(undefined));
      res.on("end", () => {
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          resolve(
            parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
              ? (parsed as Record<string, unknown>)
              : undefined,
          );
        } catch {
          resolve(undefined); // not JSON
        }
      });
    });
    req.end();
  });
}
