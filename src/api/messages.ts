// POST /messages, GET /messages, GET /messages/{id}.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { getMessages, getSingleMessage, type Anchor } from "../services/messages/queries";
import { updateMessageFlags } from "../services/messages/flags";
import type { Destination } from "../services/messages/send";
import { messageHooks } from "../services/messages/hooks";
import { actor, pathInt, type RouteKit } from "./routeKit";
import { JsonTooDeepError, parseJson } from "../json";

/** A JSON list or string, or a JSON number (the whole text); anything else is plain text. */
const MAYBE_JSON_TO = /^\s*(?:[[\x22]|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$)/;

/** `to` is a channel name, a channel id, a JSON list of user ids/emails, or comma-separated emails. */
function parseTo(raw: string, type: "stream" | "private"): (string | number)[] | string | number {
  let parsed: unknown = raw;
  // Only a list, a quoted string or a number can mean something other than the plain text: a channel
  // name (the usual case) is not handed to JSON.parse, which would throw on every such send.
  if (MAYBE_JSON_TO.test(raw)) {
    try {
      parsed = parseJson(raw);
    } catch (err) {
      if (err instanceof JsonTooDeepError) throw err;
      /* a plain channel name or comma-separated emails after all */
    }
  }
  if (type === "stream") {
    if (Array.isArray(parsed) && parsed.length === 1) parsed = parsed[0];
    if (typeof parsed === "number" && Number.isInteger(parsed)) return parsed;
    if (typeof parsed === "string") return parsed;
    if (typeof raw === "string" && !Array.isArray(parsed)) return raw;
    throw Errors.invalidParam("to", "Invalid 'to' for a channel message: give one channel name or ID");
  }
  const list = Array.isArray(parsed)
    ? parsed
    : typeof parsed === "number"
      ? [parsed]
      : raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
  if (!list.every((x) => (typeof x === "number" && Number.isInteger(x)) || typeof x === "string")) {
    throw Errors.invalidParam("to", "Invalid 'to' for a direct message: give user IDs or emails");
  }
  return list as (string | number)[];
}

function parseAnchor(raw: string | undefined): Anchor {
  if (raw === undefined || raw === "newest" || raw === "oldest" || raw === "first_unread") return raw ?? "newest";
  if (/^\d+$/.test(raw)) return Number(raw);
  throw Errors.invalidParam("anchor", "Invalid anchor");
}

export function messagesRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/messages", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      type: P.enum(["stream", "channel", "direct", "private"] as const).required(),
      to: P.string().required(),
      topic: P.string().alias("subject"),
      content: P.string().required(),
      queue_id: P.string(),
      local_id: P.string(),
      read_by_sender: P.bool(),
    });
    const kind = p.type === "stream" || p.type === "channel" ? "stream" : "private";
    const to = parseTo(p.to, kind);
    const destination: Destination =
      kind === "stream"
        ? { type: "stream", stream: to as string | number, topic: p.topic ?? "" }
        : { type: "private", to: to as (string | number)[] };
    // Answered once committed (group commit: one transaction for concurrent sends) and published.
    const { id } = await deps.messageSender.send({ realm, sender: user, destination, content: p.content });
    ok(ctx, { id, automatic_new_visibility_policy: null });
  });

  router.post("/messages/flags", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      messages: P.json<number[]>({ type: "array", items: { type: "integer" } }, "a list of integers").required(),
      op: P.string({ maxLength: 100 }).required(),
      flag: P.string({ maxLength: 100 }).required(),
    });
    if (p.op !== "add" && p.op !== "remove") throw Errors.badRequest(`Invalid message flag operation: '${p.op}'`);
    await deps.bus.publish(
      await updateMessageFlags(deps.db, realm, user, { messageIds: p.messages, op: p.op, flag: p.flag }),
    );
    // The reference answers with the ids it was given (kept for old clients).
    ok(ctx, { messages: p.messages });
  });

  // Preview rendering (the Python client's render_message); same Markdown path as sending.
  router.post("/messages/render", auth, async (ctx) => {
    const { realm } = actor(ctx);
    const p = parseParams(ctx, { content: P.string().required() });
    ok(ctx, { rendered: await messageHooks.render(deps.db, realm, p.content) });
  });

  router.get("/messages", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      anchor: P.string(),
      include_anchor: P.bool().default(true),
      num_before: P.int({ min: 0, max: 5000 }).required(),
      num_after: P.int({ min: 0, max: 5000 }).required(),
      narrow: P.string().default("[]"),
      apply_markdown: P.bool().default(true),
      client_gravatar: P.bool().default(true),
      use_first_unread_anchor: P.bool().default(false),
    });
    const anchor = p.use_first_unread_anchor ? "first_unread" : parseAnchor(p.anchor);
    const result = await getMessages(deps.db, realm, user, {
      anchor,
      includeAnchor: p.include_anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      narrow: p.narrow,
      applyMarkdown: p.apply_markdown,
    });
    ok(ctx, result);
  });

  router.get("/messages/:message_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { apply_markdown: P.bool().default(true) });
    const { message, rawContent } = await getSingleMessage(
      deps.db,
      realm,
      user,
      pathInt(ctx, "message_id"),
      p.apply_markdown,
    );
    ok(ctx, { message, raw_content: rawContent });
  });
}
