// Groove's message events (replies, notes) don't carry the ticket's number or the author's name,
// only API links: ".../v1/tickets/776" and ".../v1/agents/ann@example.com". Both are read from
// those links so every event of a ticket lands in the same topic. The facts line joins only the
// facts a ticket has; the ticket's link and label are manifest outputs.
import { trimEndChars, type TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const lastSegment = (href: unknown): string | undefined => {
  if (typeof href !== "string") return undefined;
  const segment = trimEndChars(href.split(/[?#]/, 1)[0], "/").split("/").pop();
  try {
    return segment ? decodeURIComponent(segment) : undefined;
  } catch {
    return segment;
  }
};

export default function transform(payload: Obj, _context: TransformContext) {
  const number = payload.number ?? lastSegment(payload.links?.ticket?.href);
  const tags = Array.isArray(payload.tags) ? payload.tags.filter((t: unknown) => typeof t === "string") : [];
  const facts = (
    [
      ["Priority", payload.priority],
      ["Mailbox", payload.mailbox],
      ["Tags", tags.join(", ")],
    ] as [string, unknown][]
  ).flatMap(([label, text]) => (typeof text === "string" && text !== "" ? [{ label, text }] : []));
  return {
    groove: {
      number: number === undefined ? undefined : String(number),
      author: lastSegment(payload.links?.author?.href),
      facts,
    },
  };
}
