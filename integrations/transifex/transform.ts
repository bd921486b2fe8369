// Transifex has sent the same facts three ways over the years: as URL query parameters (what
// the reference's tests use), as form fields (legacy webhooks) and as a JSON body (webhooks
// v3). The body's fields win; the query's arrive here as URL options.
import { scalarText as text } from "../../src/webhooks/plugin";
import type { TransformContext } from "../../src/webhooks/plugin";

type Obj = Record<string, unknown>;

const FIELDS = ["event", "project", "resource", "language", "translated", "reviewed", "proofread"] as const;

export default function transform(payload: Obj, context: TransformContext) {
  const tx: Partial<Record<(typeof FIELDS)[number] | "organization" | "step" | "percent" | "projectUrl", string>> = {};
  for (const field of FIELDS) tx[field] = text(payload[field]) ?? text(context.options[field]);
  tx.organization = text(payload.organization);
  // Which step completed: named by the event, else by which percentage was sent.
  const event = tx.event ?? "";
  tx.step = /review/.test(event)
    ? "reviewed"
    : /proofread/.test(event)
      ? "proofread"
      : /fillup/.test(event)
        ? "filled up"
        : tx.translated !== undefined || /translation/.test(event)
          ? "translated"
          : tx.reviewed !== undefined
            ? "reviewed"
            : tx.proofread !== undefined
              ? "proofread"
              : undefined;
  // A step reported below 100% (older webhooks sent every change) reads as a percentage.
  const percent = tx.step === "translated" ? tx.translated : tx.step === "reviewed" ? tx.reviewed : tx.proofread;
  if (percent !== undefined && Number(percent) < 100) tx.percent = `${Number(percent)}%`;
  if (tx.organization && tx.project)
    tx.projectUrl = `https://app.transifex.com/${encodeURIComponent(tx.organization)}/${encodeURIComponent(tx.project)}/`;
  return { tx };
}
