// POST /typing.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { channelTyping, directTyping } from "../services/messages/typing";
import { actor, type RouteKit } from "./routeKit";
import { JsonTooDeepError, parseJson } from "../json";

/** A JSON list of user IDs; a single bare ID (as zulip-js sends for one recipient) also works. */
const userIdList = P.custom<number[]>((raw, name) => {
  let value: unknown;
  try {
    value = parseJson(String(raw));
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw err;
    throw Errors.invalidJsonParam(name);
  }
  if (Number.isSafeInteger(value)) return [value as number];
  if (!Array.isArray(value) || !value.every((v) => Number.isSafeInteger(v)))
    throw Errors.invalidParam(name, `${name} is not a list of integers`);
  return value as number[];
});

export function typingRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/typing", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      type: P.enum(["direct", "stream", "channel"] as const).default("direct"),
      op: P.enum(["start", "stop"] as const).required(),
      to: userIdList,
      stream_id: P.jsonInt(),
      topic: P.string(),
    });
    let notifications;
    if (p.type === "direct") {
      if (p.to === undefined) throw Errors.badRequest("Missing 'to' argument");
      if (p.to.length === 0) throw Errors.badRequest("Empty 'to' list");
      notifications = await directTyping(deps.db, realm, user, p.op, p.to);
    } else {
      // The reference reports these as plain BAD_REQUEST errors, not REQUEST_VARIABLE_MISSING.
      if (p.stream_id === undefined) throw Errors.badRequest("Missing 'stream_id' argument");
      if (p.topic === undefined) throw Errors.badRequest("Missing topic");
      notifications = await channelTyping(deps.db, realm, user, p.op, p.stream_id, p.topic);
    }
    await deps.bus.publish(notifications);
    ok(ctx);
  });
}
