// POST /register, GET /events (long-poll), DELETE /events.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { buildRegisterState } from "../services/events/registerState";
import { parseEventNarrow } from "../events/narrow";
import { actor, type RouteKit } from "./routeKit";

const MOBILE_IDLE_SECONDS = 12 * 3600;

export function eventsRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/register", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      apply_markdown: P.bool().default(false),
      client_gravatar: P.bool().default(true),
      include_subscribers: P.enum(["true", "false", "partial"] as const).default("false"),
      slim_presence: P.bool().default(false),
      presence_history_limit_days: P.int({ min: 0 }),
      event_types: P.json<string[]>({ type: "array", items: { type: "string" } }, "a list of strings"),
      fetch_event_types: P.json<string[]>({ type: "array", items: { type: "string" } }, "a list of strings"),
      all_public_streams: P.bool().default(false),
      client_capabilities: P.json<Record<string, boolean>>({ type: "object" }, "an object"),
      narrow: P.json<unknown[]>({ type: "array" }, "a list"),
      idle_queue_timeout: P.custom((raw, name) => {
        if (raw === "mobile") return MOBILE_IDLE_SECONDS;
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 1) throw Errors.invalidParam(name, `Invalid ${name}`);
        return n;
      }),
    });
    const eventTypes = p.event_types ?? null;
    const narrow = parseEventNarrow(p.narrow ?? []);
    // Bounded by EVENT_QUEUE_MAX_IDLE_SECONDS (the reference's 7 days by default); the answer's
    // idle_queue_timeout_secs says what the queue got.
    const idle = Math.min(
      p.idle_queue_timeout ?? deps.config.eventQueueIdleSeconds,
      deps.config.eventQueueMaxIdleSeconds,
    );
    const { queueId, lastEventId } = await deps.queues.register({
      userId: user.id,
      realmId: realm.id,
      eventTypes,
      capabilities: p.client_capabilities ?? {},
      applyMarkdown: p.apply_markdown,
      idleTimeoutSeconds: idle,
      allPublicStreams: p.all_public_streams,
      narrow,
    });
    const state = await buildRegisterState(
      {
        q: deps.db,
        realm,
        user,
        externalUrl: deps.config.externalUrl,
        integrations: deps.integrations,
        longPollTimeoutSeconds: deps.config.longPollTimeoutSeconds,
        includeSubscribers: p.include_subscribers !== "false",
        clientCapabilities: p.client_capabilities ?? {},
        server: {
          maxUploadBytes: deps.config.limits.maxUploadBytes,
          webPublicStreamsEnabled: deps.config.webPublicStreamsEnabled,
        },
        slimPresence: p.slim_presence,
        presenceHistoryLimitDays: p.presence_history_limit_days,
      },
      p.fetch_event_types ?? eventTypes,
    );
    ok(ctx, { queue_id: queueId, last_event_id: lastEventId, idle_queue_timeout_secs: idle, ...state });
  });

  router.get("/events", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, {
      queue_id: P.string().required(),
      last_event_id: P.int({ min: -1 }),
      dont_block: P.bool().default(false),
    });
    let closed = false;
    ctx.req.on("close", () => (closed = true));
    const events = await deps.queues.getEvents(p.queue_id, user.id, p.last_event_id, p.dont_block, () => closed);
    ok(ctx, { events, queue_id: p.queue_id });
  });

  router.delete("/events", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { queue_id: P.string().required() });
    await deps.queues.delete(p.queue_id, user.id);
    ok(ctx);
  });
}
