// Front events name who did it (`source`: a teammate, a rule, an inbox, the API) and what it
// was done to (`target`: a message, a comment, a teammate, a tag), each with a `_meta.type`.
// This reads both into names and text, and the conversation into a link and a topic.
import { nonEmptyText as str, type TransformContext } from "../../src/webhooks/plugin";

// Payloads are untyped JSON; the schema has checked what the templates rely on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** "Leela Turanga" for a teammate, falling back to the username or email. */
export function teammateName(t: Obj | null | undefined): string | undefined {
  if (!t || typeof t !== "object") return undefined;
  const full = [str(t.first_name), str(t.last_name)].filter(Boolean).join(" ");
  return full || str(t.username) || str(t.email);
}

function actorOf(source: Obj | undefined): string | undefined {
  const kind = source?._meta?.type;
  const data = source?.data;
  if (kind === "teammate") return teammateName(data);
  if (kind === "rule") return str(data?.name) ? `Rule “${str(data.name)}”` : "A rule";
  if (kind === "api") return "The API";
  return undefined;
}

/** The sender of a message: its teammate author, else the handle with the "from" role. */
function senderOf(message: Obj | undefined): string | undefined {
  if (!message) return undefined;
  const from = Array.isArray(message.recipients) ? message.recipients.find((r: Obj) => r?.role === "from") : undefined;
  return teammateName(message.author) ?? str(from?.handle);
}

function recipientsOf(message: Obj | undefined): string | undefined {
  if (!message || !Array.isArray(message.recipients)) return undefined;
  const to = message.recipients.filter((r: Obj) => r?.role === "to" || r?.role === "cc").map((r: Obj) => str(r.handle));
  return to.filter(Boolean).join(", ") || undefined;
}

const MAX_TEXT = 1500;

function clip(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT).trimEnd()} …` : text;
}

export default function transform(payload: Obj, _context: TransformContext) {
  const conversation: Obj = payload.conversation ?? {};
  const target: Obj | undefined = payload.target?.data;
  const targetKind: string | undefined = payload.target?._meta?.type;
  const message = targetKind === "message" ? target : undefined;
  const subject = str(conversation.subject)?.replace(/^((re|fwd?|aw|wg)\s*:\s*)+/i, "");
  const id = str(conversation.id);
  return {
    front: {
      actor: actorOf(payload.source) ?? senderOf(message),
      url: id ? `https://app.frontapp.com/open/${id}` : undefined,
      subject: subject ?? "(no subject)",
      sender: senderOf(message),
      recipients: recipientsOf(message),
      text: clip(
        str(message?.text) ?? str(message?.blurb) ?? (targetKind === "comment" ? str(target?.body) : undefined),
      ),
      teammate: targetKind === "teammate" ? teammateName(target) : undefined,
      tag: targetKind === "tag" ? str(target?.name) : undefined,
      topic: [id, subject].filter(Boolean).join(": ") || "Front",
    },
  };
}
