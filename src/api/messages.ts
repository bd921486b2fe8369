// POST /messages, GET /messages, GET/PATCH/DELETE /messages/{id}, its history, flags (by ids and
// by narrow) and the bulk mark-as-read endpoints.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { getMessages, getSingleMessage, type Anchor } from "../services/messages/queries";
import { updateMessageFlags } from "../services/messages/flags";
import type { Destination } from "../services/messages/send";
import { messageHooks } from "../services/messages/hooks";
import { actor, pathInt, type RouteKit } from "./routeKit";
import { JsonTooDeepError, parseJson } from "../json";
import { editMessage, PROPAGATE_MODES } from "../services/messages/edit";
import { deleteMessage } from "../services/messages/delete";
import { messageHistory } from "../services/messages/history";
import { markAllAsRead, markStreamAsRead, markTopicAsRead, updateFlagsForNarrow } from "../services/messages/readState";

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

export function messagesRoutes({ router, deps, auth, authWebhookBot }: RouteKit): void {
  // Incoming-webhook bots may send messages (the reference's one REST endpoint for them).
  router.post("/messages", authWebhookBot, async (ctx) => {
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

  router.post("/messages/flags/narrow", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      anchor: P.string().required(),
      include_anchor: P.bool().default(true),
      num_before: P.int({ min: 0, max: 5000 }).required(),
      num_after: P.int({ min: 0, max: 5000 }).required(),
      narrow: P.string().required(),
      op: P.enum(["add", "remove"] as const).required(),
      flag: P.string({ maxLength: 100 }).required(),
    });
    const { answer, notifications } = await updateFlagsForNarrow(deps.db, realm, user, {
      anchor: parseAnchor(p.anchor),
      includeAnchor: p.include_anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      narrow: p.narrow,
      op: p.op,
      flag: p.flag,
    });
    await deps.bus.publish(notifications);
    ok(ctx, answer);
  });

  router.post("/mark_all_as_read", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    await deps.bus.publish(await markAllAsRead(deps.db, realm, user));
    ok(ctx, { complete: true });
  });

  router.post("/mark_stream_as_read", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { stream_id: P.int({ min: 0 }).required() });
    await deps.bus.publish(await markStreamAsRead(deps.db, realm, user, p.stream_id));
    ok(ctx);
  });

  router.post("/mark_topic_as_read", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      stream_id: P.int({ min: 0 }).required(),
      topic_name: P.string({ maxLength: 1000 }).required(),
    });
    await deps.bus.publish(await markTopicAsRead(deps.db, realm, user, p.stream_id, p.topic_name));
    ok(ctx);
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

  router.patch("/messages/:message_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      topic: P.string({ maxLength: 1000 }).alias("subject"),
      propagate_mode: P.enum(PROPAGATE_MODES).default("change_one"),
      send_notification_to_old_thread: P.bool().default(false),
      send_notification_to_new_thread: P.bool().default(true),
      content: P.string(),
      stream_id: P.int({ min: 0 }),
      prev_content_sha256: P.string({ maxLength: 64 }),
    });
    const notifications = await editMessage(deps.db, realm, user, {
      messageId: pathInt(ctx, "message_id"),
      content: p.content,
      topic: p.topic,
      streamId: p.stream_id,
      propagateMode: p.propagate_mode,
      notifyOldThread: p.send_notification_to_old_thread,
      notifyNewThread: p.send_notification_to_new_thread,
      prevContentSha256: p.prev_content_sha256,
    });
    await deps.bus.publish(notifications);
    // Uploads whose last reference an edit removed: none are tracked as detached here.
    ok(ctx, { detached_uploads: [] });
  });

  router.delete("/messages/:message_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    await deps.bus.publish(await deleteMessage(deps.db, realm, user, pathInt(ctx, "message_id")));
    ok(ctx);
  });

  router.get("/messages/:message_id/history", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    ok(ctx, { message_history: await messageHistory(deps.db, realm, user, pathInt(ctx, "message_id")) });
  });
}
