// GET /streams, GET /streams/{id}, GET /get_stream_id. (GET /users/me/subscriptions lives in subscriptions.ts.)
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { findAccessibleChannel, listVisibleChannels } from "../services/channels/channels";
import { formatStreams } from "../services/channels/format";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function channelsRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/streams", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      include_public: P.bool().default(true),
      include_web_public: P.bool().default(false),
      include_subscribed: P.bool().default(true),
      exclude_archived: P.bool().default(true),
      include_all: P.bool().default(false),
      include_all_active: P.bool().default(false),
      include_default: P.bool().default(false),
      include_owner_subscribed: P.bool().default(false),
      include_can_access_content: P.bool().default(false),
    });
    const visible = await listVisibleChannels(deps.db, user, p);
    ok(ctx, { streams: await formatStreams(deps.db, realm, visible) });
  });

  router.get("/streams/:stream_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const id = pathInt(ctx, "stream_id");
    const stream = await findAccessibleChannel(deps.db, user, id);
    if (!stream) throw Errors.badRequest("Invalid channel ID");
    const [formatted] = await formatStreams(deps.db, realm, [stream]);
    ok(ctx, { stream: formatted });
  });

  router.get("/get_stream_id", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { stream: P.string().required() });
    const stream = await findAccessibleChannel(deps.db, user, p.stream);
    if (!stream) throw Errors.streamNameNotFound(p.stream);
    ok(ctx, { stream_id: stream.id });
  });
}
