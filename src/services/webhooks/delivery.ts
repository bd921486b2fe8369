// The webhook service: what happens to a delivery once the pipeline has read it. One entry point,
// deliverWebhook, owns everything with side effects: direct messages to the bot's owner about a
// misconfigured webhook, the unsupported-event answer (logged and counted), resolving the URL's
// channel (once, reused for every message; a missing one is a 200 and a notice, as in the reference;
// a channel a message names itself, manifest `channel`, is looked up and missed the same way),
// direct-to-owner events, the length limits, storing all messages in one transaction and publishing
// their events after the commit. A delivery whose sender
// id (manifest `deliveryId`) was already posted within the window is a redelivery: not posted again.
import type { Config } from "../../config";
import type { RealmRow, StreamRow, UserRow } from "../../db/rows";
import { findStreamById, findStreamByName } from "../../db/streams";
import { claimDeliveryId, releaseDeliveryId, type ClaimKey } from "../../db/webhookOps";
import { ApiError, Errors } from "../../errors";
import { limitMarkdown, limitTopic } from "../../webhooks/safeMarkdown";
import type { PipelineResult, RenderedMessage } from "../../webhooks/pipeline";
import type { Integration, IntegrationRegistry } from "../../webhooks/registry";
import type { Destination, SendInput } from "../messages/send";
import { MAX_STREAM_NAME_LENGTH } from "../channels/channels";
import { noticeText, OwnerNotices, type OwnerNoticeDeps } from "./notices";

export interface WebhookDelivery {
  integration: Integration;
  realm: RealmRow;
  /** The authenticated bot (or a human's key: messages without a channel then go to that user). */
  bot: UserRow;
  /** The request path, quoted in the owner's notice about a missing event header. */
  path: string;
  /** The URL's `stream` parameter: a channel name, or an ID when all digits. */
  stream?: string;
  result: PipelineResult;
  /** A replay from the delivery log: posted even if the sender's delivery id was seen. */
  replay?: boolean;
}

export type DeliveryResult =
  { kind: "posted"; messageIds: number[] } | { kind: "ignored"; reason: string } | { kind: "duplicate" };

export const clientName = (integration: Integration) =>
  `Zulip${integration.manifest.displayName.replace(/[^A-Za-z0-9]/g, "")}Webhook`;

/** `stream` URL value → channel name or ID; undefined when absent or blank. */
export function parseStreamParam(raw: string | undefined): string | number | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** The one place webhook messages are cut to the server's limits (closing an open code fence). */
const withinLimits = (m: RenderedMessage): RenderedMessage => ({
  ...m,
  topic: limitTopic(m.topic),
  content: limitMarkdown(m.content),
});

/** The delivery log's `ignored_reason` when the URL's channel does not exist. */
const MISSING = "missing channel";

export type DeliverWebhook = (delivery: WebhookDelivery) => Promise<DeliveryResult>;

/** What deliveries are made with (AppDeps has all of it). */
export interface WebhookDeliveryDeps extends OwnerNoticeDeps {
  integrations: IntegrationRegistry;
  config: Pick<Config, "webhookLog">;
}

/** Builds the app's deliverWebhook (it keeps the owner notices' rate-limit memory). */
export function createWebhookDelivery(deps: WebhookDeliveryDeps): DeliverWebhook {
  const dedupWindowMs = deps.config.webhookLog.dedupWindowSeconds * 1000;
  const notices = new OwnerNotices(deps);
  const unsupportedLog = deps.logger.child({ logger: "webhooks.unsupported" });

  /** Misconfigurations the bot owner can fix get a (rate-limited) direct message too. */
  async function noticeFailure(d: WebhookDelivery, err: unknown): Promise<void> {
    if (!(err instanceof ApiError)) return;
    const { name, manifest } = d.integration;
    if (err.code === "INVALID_JSON")
      await notices.send(d.realm, d.bot, `json:${name}`, noticeText.invalidJson(d.bot, manifest.displayName));
    else if (err.code === "MISSING_HTTP_EVENT_HEADER") {
      const text = noticeText.missingHeader(d.bot, manifest.displayName, d.path, String(err.extra.header));
      await notices.send(d.realm, d.bot, `header:${name}`, text);
    }
  }

  function unsupported(integration: Integration, eventType: string, reply?: Record<string, string>): ApiError {
    const count = deps.integrations.countUnsupported(integration.name);
    unsupportedLog.info({ integration: integration.name, eventType, count }, "unsupported webhook event");
    return Errors.unsupportedEvent(integration.manifest.displayName, eventType, reply);
  }

  /**
   * The URL's channel, looked up once. A missing one is not an error, as in the reference: the
   * sender (GitHub…) would mark the delivery failed for what only the bot owner can fix, so the
   * owner is told instead and the answer is a 200.
   */
  async function resolveChannel(d: WebhookDelivery): Promise<StreamRow | typeof MISSING | undefined> {
    const wanted = parseStreamParam(d.stream);
    if (wanted === undefined) return undefined;
    const channel =
      typeof wanted === "number"
        ? await findStreamById(deps.db, d.realm.id, wanted)
        : await findStreamByName(deps.db, d.realm.id, wanted);
    if (channel) return channel;
    await notices.send(d.realm, d.bot, `stream:${wanted}`, noticeText.missingChannel(d.bot, wanted));
    return MISSING;
  }

  /**
   * A channel a message names itself (manifest `channel`, from the payload): looked up by name, and
   * a missing one handled as the URL's is (a notice, nothing posted there). A name no channel can
   * have (too long, control characters) is missing without a query.
   */
  async function resolveNamedChannel(d: WebhookDelivery, name: string): Promise<StreamRow | typeof MISSING> {
    const possible = [...name].length <= MAX_STREAM_NAME_LENGTH && !/\p{Cc}/u.test(name);
    const channel = possible ? await findStreamByName(deps.db, d.realm.id, name) : undefined;
    if (channel) return channel;
    const text = noticeText.missingNamedChannel(d.bot, d.integration.manifest.displayName, name);
    await notices.send(d.realm, d.bot, `stream:${name}`, text);
    return MISSING;
  }

  return async function deliverWebhook(d: WebhookDelivery): Promise<DeliveryResult> {
    if ("error" in d.result) {
      await noticeFailure(d, d.result.error);
      throw d.result.error;
    }
    const { outcome } = d.result;
    if (outcome.kind === "unsupported") throw unsupported(d.integration, outcome.event.eventType, outcome.reply);
    if (outcome.kind === "ignored") return { kind: "ignored", reason: outcome.reason };

    // The claim is a row under a unique key: it holds across processes and restarts.
    const claimed: (ClaimKey & { at: number }) | undefined =
      outcome.deliveryId && !d.replay && dedupWindowMs > 0
        ? { botId: d.bot.id, integration: d.integration.name, deliveryId: outcome.deliveryId, at: Date.now() }
        : undefined;
    if (claimed && !(await claimDeliveryId(deps.db, claimed, claimed.at, dedupWindowMs))) return { kind: "duplicate" };
    try {
      const posted = await post(d, outcome.messages);
      if (posted !== MISSING) return { kind: "posted", messageIds: posted };
      // Nothing posted: once the owner creates the channel, a redelivery must not be a duplicate.
      if (claimed) await releaseDeliveryId(deps.db, claimed, claimed.at).catch(() => undefined);
      return { kind: "ignored", reason: MISSING };
    } catch (err) {
      // Nothing was posted: the sender's retry of this delivery must not count as a duplicate.
      if (claimed) await releaseDeliveryId(deps.db, claimed, claimed.at).catch(() => undefined);
      throw err;
    }
  };

  /** Posts the messages; MISSING when every channel they go to does not exist and nothing was posted. */
  async function post(d: WebhookDelivery, rendered: RenderedMessage[]): Promise<number[] | typeof MISSING> {
    const messages = rendered.map(withinLimits);
    // Direct-to-owner events (`direct` / `directWhen`) need no channel; the URL's is looked up only
    // when a message goes there (no `channel` of its own), each named one once.
    const urlChannel = messages.some((m) => !m.direct && m.channel === undefined) ? await resolveChannel(d) : undefined;
    const named = new Map<string, StreamRow | typeof MISSING>();
    for (const m of messages)
      if (!m.direct && m.channel !== undefined && !named.has(m.channel))
        named.set(m.channel, await resolveNamedChannel(d, m.channel));
    const owner = d.bot.bot_owner_id ?? d.bot.id;
    const inputs: SendInput[] = [];
    for (const message of messages) {
      const channel = message.direct
        ? undefined
        : message.channel !== undefined
          ? named.get(message.channel)
          : urlChannel;
      // A missing channel's messages are dropped (the owner was told); the others still go.
      if (channel === MISSING) continue;
      const destination: Destination = channel
        ? { type: "stream", stream: channel.id, topic: message.topic, channel }
        : { type: "private", to: [owner] };
      inputs.push({
        realm: d.realm,
        sender: d.bot,
        destination,
        content: message.content,
        client: clientName(d.integration),
      });
    }
    if (inputs.length === 0) return MISSING;
    // All of a delivery's messages or none, committed together with other concurrent sends.
    return deps.messageSender.sendAll(inputs);
  }
}
