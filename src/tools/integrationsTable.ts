// The table of every integration in docs/integrations.md, generated from the manifests (so it
// cannot drift): `npm run integrations-table` writes it, test/integrations.test.ts fails when the
// file is out of date.
import type { Manifest } from "../webhooks/manifest";
import type { Integration } from "../webhooks/registry";
import { joinLines } from "../text";

export const INTEGRATIONS_DOC = "docs/integrations.md";

const code = (s: string) => `\`${s}\``;
/** A table cell: no line breaks, and `|` would end the cell. */
const cell = (s: string) => joinLines(s).replace(/\|/g, "\\|");

function eventSource(m: Manifest): string {
  const source = m.eventSource;
  const action = source.actionField ? ` (+ ${code(source.actionField)})` : "";
  if ("header" in source) return `header ${code(source.header)}${action}`;
  if ("field" in source) {
    const fallback = source.default ? `, default ${code(source.default)}` : "";
    const mapped = source.map ? ", mapped" : "";
    return `payload ${code(source.field)}${action}${mapped}${fallback}`;
  }
  return `fixed ${code(source.fixed)}${action}`;
}

function events(m: Manifest): string {
  const handled = Object.entries(m.events)
    .filter(([key, spec]) => !spec.ignore && key !== "*")
    .map(([key]) => code(key));
  const catchAll = m.events["*"] && !m.events["*"].ignore ? ["any other event"] : [];
  return `${eventSource(m)}: ${[...handled, ...catchAll].join(", ") || "—"}`;
}

function urlOptions(m: Manifest): string {
  const options = (m.urlOptions ?? []).map((o) =>
    o.default === undefined ? code(o.key) : `${code(o.key)} (default ${code(o.default)})`,
  );
  return options.join(", ") || "—";
}

const BODIES: Record<NonNullable<Manifest["contentType"]>, string> = {
  json: "JSON",
  form: "form fields",
  "form-json": "JSON in a form field",
  xml: "XML (or JSON)",
  query: "URL query (empty body)",
  text: "plain text (or JSON)",
};

/** Where the signature is and what kind it is ("token": the secret itself; ECDSA: the secret is the public key). */
function signatureNote(spec: NonNullable<Manifest["signature"]>): string {
  const where = spec.field !== undefined ? `field ${code(spec.field)}` : code(spec.header ?? "");
  if (spec.algorithm === "token") return `token ${where} (the webhook secret)`;
  if (spec.algorithm === "ecdsa-p256-sha256")
    return `signature ${where} (ECDSA P-256, the service's public key as webhook secret)`;
  const covers = spec.signedText ? ` of ${code(spec.signedText)}` : "";
  return `signature ${where} (HMAC-${spec.algorithm.toUpperCase()}${covers}, with a webhook secret)`;
}

function notes(m: Manifest): string {
  const out: string[] = [];
  const body = m.contentType ?? "json";
  out.push(body === "form-json" ? `JSON in form field ${code(m.formField ?? "payload")}` : BODIES[body]);
  if (m.signature) out.push(signatureNote(m.signature));
  if (m.signature?.timestamp)
    out.push(`signed ${code(m.signature.timestamp.field)} within ${m.signature.timestamp.toleranceSeconds} s`);
  const stamp = m.signature?.timestampHeader;
  if (stamp) out.push(`signed ${code(stamp.header)} within ${stamp.toleranceSeconds} s`);
  if (m.verification === "aws-sns") out.push("Amazon SNS signatures verified (certificate from an SNS host)");
  if (typeof m.setupProbe === "object")
    out.push(`answers its GET verification (echoes ${code(m.setupProbe.echoQuery)})`);
  else if (m.setupProbe) out.push("answers HEAD/GET set-up probes");
  const direct = Object.entries(m.events)
    .filter(([, spec]) => spec.direct || spec.directWhen)
    .map(([key]) => code(key));
  if (m.eventDefaults?.direct || m.eventDefaults?.directWhen) out.push("may message the bot's owner directly");
  else if (direct.length) out.push(`direct message to the bot's owner: ${direct.join(", ")}`);
  if (m.deliveryId) out.push("delivery ids");
  return out.join("; ");
}

/** docs/integrations.md: one row per integration, sorted by name. */
export function integrationsTableMarkdown(integrations: Integration[]): string {
  const rows = [...integrations]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ manifest: m, name, docPath }) =>
      [
        `[${code(name)}](../${docPath})`,
        m.displayName,
        m.categories.join(", "),
        events(m),
        urlOptions(m),
        notes(m),
      ].map(cell),
    );
  return [
    "# Integrations",
    "",
    "<!-- Generated from integrations/*/integration.json by `npm run integrations-table`: do not edit by hand. -->",
    "",
    `${integrations.length} incoming-webhook integrations. The webhook URL is`,
    "`https://<server>/api/v1/external/<name>?api_key=<bot key>&stream=<channel>` (or HTTP Basic",
    "`<bot email>:<bot key>` with only `stream` in the URL); every integration also takes `topic`,",
    "`only_events` and `exclude_events`. Each name links to the integration's page for bot owners.",
    "",
    "| Name | Display name | Categories | Events | URL options | Body and notes |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
  ].join("\n");
}
