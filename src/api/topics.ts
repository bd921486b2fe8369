// Channels and topics for one user: GET /users/me/{stream_id}/topics, POST /user_topics (and the
// legacy PATCH /users/me/subscriptions/muted_topics), subscription properties
// (POST /users/me/subscriptions/properties and /users/me/subscriptions/{stream_id}), and the
// channel administration routes PATCH / DELETE /streams/{stream_id}, GET /streams/{stream_id}/members.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { Errors } from "../errors";
import { archiveChannel, channelMembers, updateChannel } from "../services/channels/administer";
import { getChannelByNameOrId } from "../services/channels/channels";
import { MAX_STREAM_DESCRIPTION_LENGTH } from "../services/channels/channels";
import { updateSubscriptionSettings, type SubscriptionChange } from "../services/channels/subscriptionProperties";
import { setTopicVisibility, topicList, VISIBILITY_POLICY } from "../services/channels/topics";
import { actor, pathInt, type RouteKit } from "./routeKit";

const subscriptionData = {
  type: "array",
  items: {
    type: "object",
    required: ["stream_id", "property", "value"],
    properties: { stream_id: { type: "integer" }, property: { type: "string" } },
  },
};

export function topicsRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/users/me/:stream_id/topics", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, { allow_empty_topic_name: P.bool().default(false) });
    ok(ctx, { topics: await topicList(deps.db, realm, user, pathInt(ctx, "stream_id")) });
  });

  router.post("/user_topics", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      stream_id: P.jsonInt().required(),
      topic: P.string().required(),
      visibility_policy: P.int()
        .required()
        .check((v) =>
          (Object.values(VISIBILITY_POLICY) as number[]).includes(v) ? undefined : "Invalid visibility_policy",
        ),
    });
    const notifications = await setTopicVisibility(deps.db, realm, user, {
      streamId: p.stream_id,
      topic: p.topic,
      visibilityPolicy: p.visibility_policy,
    });
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.patch("/users/me/subscriptions/muted_topics", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      stream_id: P.jsonInt(),
      stream: P.string(),
      topic: P.string().required(),
      op: P.enum(["add", "remove"] as const).required(),
    });
    if ((p.stream_id === undefined) === (p.stream === undefined))
      throw Errors.badRequest("Please supply 'stream' or 'stream_id'.");
    const stream = await getChannelByNameOrId(deps.db, realm.id, p.stream_id ?? p.stream!);
    const notifications = await setTopicVisibility(deps.db, realm, user, {
      streamId: stream.id,
      topic: p.topic,
      visibilityPolicy: p.op === "add" ? VISIBILITY_POLICY.muted : VISIBILITY_POLICY.inherit,
    });
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.post("/users/me/subscriptions/properties", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      subscription_data: P.json<SubscriptionChange[]>(subscriptionData, "a list of subscription changes").required(),
    });
    await deps.bus.publish(await updateSubscriptionSettings(deps.db, realm, user, p.subscription_data));
    ok(ctx);
  });

  router.post("/users/me/subscriptions/:stream_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { property: P.string().required(), value: P.string().required() });
    const change = { stream_id: pathInt(ctx, "stream_id"), property: p.property, value: p.value };
    await deps.bus.publish(await updateSubscriptionSettings(deps.db, realm, user, [change]));
    ok(ctx);
  });

  router.patch("/streams/:stream_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      new_name: P.name(),
      description: P.string({ maxLength: MAX_STREAM_DESCRIPTION_LENGTH }),
      is_private: P.bool(),
      is_web_public: P.bool(),
      history_public_to_subscribers: P.bool(),
    });
    const notifications = await updateChannel(
      deps.db,
      realm,
      user,
      pathInt(ctx, "stream_id"),
      {
        newName: p.new_name,
        description: p.description,
        isPrivate: p.is_private,
        isWebPublic: p.is_web_public,
        historyPublicToSubscribers: p.history_public_to_subscribers,
      },
      { webPublicStreamsEnabled: deps.config.webPublicStreamsEnabled },
    );
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.delete("/streams/:stream_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await archiveChannel(deps.db, realm, user, pathInt(ctx, "stream_id")));
    ok(ctx);
  });

  router.get("/streams/:stream_id/members", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { subscribers: await channelMembers(deps.db, realm, user, pathInt(ctx, "stream_id")) });
  });
}
