// Patreon's webhooks are JSON:API documents: the member or post in `data`, and the campaign,
// user and tiers it refers to in `included`. This resolves those references and formats the
// pledge ("$5.00/month") so the templates read plain fields. The patron status in words and the
// post's absolute URL are manifest outputs.
import { nonEmptyText as str } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£", AUD: "A$", CAD: "CA$" };

/** 500 → "$5.00"; with a known other currency code, "5.00 SEK". */
export function formatCents(cents: unknown, currency?: string): string | undefined {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return undefined;
  const amount = (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const code = (currency ?? "USD").toUpperCase();
  return SYMBOLS[code] ? `${SYMBOLS[code]}${amount}` : `${amount} ${code}`;
}

/** pledge_cadence is the number of months between charges. */
export function per(cadence: unknown): string {
  if (cadence === 12) return "/year";
  if (typeof cadence === "number" && cadence > 1) return ` every ${cadence} months`;
  return "/month";
}

export default function transform(payload: Obj, _context: TransformContext) {
  const data: Obj = payload.data ?? {};
  const attributes: Obj = data.attributes ?? {};
  const included: Obj[] = Array.isArray(payload.included) ? payload.included : [];
  const find = (ref: Obj | undefined): Obj | undefined =>
    ref ? included.find((i) => i?.type === ref.type && String(i?.id) === String(ref.id)) : undefined;
  const campaign = find(data.relationships?.campaign?.data)?.attributes ?? {};
  const user = find(data.relationships?.user?.data)?.attributes ?? {};
  const tierRefs: Obj[] = data.relationships?.currently_entitled_tiers?.data ?? [];
  const tiers = tierRefs.map((ref) => str(find(ref)?.attributes?.title)).filter(Boolean);
  const currency = str(attributes.campaign_currency) ?? str(campaign.currency);
  const cents = attributes.currently_entitled_amount_cents || attributes.will_pay_amount_cents;
  const amount = typeof cents === "number" && cents > 0 ? formatCents(cents, currency) : undefined;
  return {
    patreon: {
      name: str(attributes.full_name) ?? str(user.full_name) ?? "A patron",
      userUrl: str(user.url),
      campaign: str(campaign.creation_name) ?? str(campaign.vanity),
      campaignUrl: str(campaign.url),
      pledge: amount ? `${amount}${per(attributes.pledge_cadence)}` : undefined,
      lifetime:
        attributes.lifetime_support_cents > 0 ? formatCents(attributes.lifetime_support_cents, currency) : undefined,
      tiers: tiers.join(", ") || undefined,
      patrons: typeof campaign.patron_count === "number" ? campaign.patron_count : undefined,
    },
  };
}
