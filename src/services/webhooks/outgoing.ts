// Outgoing webhooks: a message that mentions an outgoing-webhook bot (bot_type 3) in a channel, or
// a direct message with one among its recipients, is POSTed to the bot's payload URL in the
// reference's format (generic JSON, or Slack's outgoing-webhook form), and the bot's answer is
// posted back as the bot to the same conversation.
//
// - Off the request path: MessageSender calls `committed` once a batch is committed and published,
//   in the process that wrote it, so each delivery is made exactly once however many processes run.
//   Deliveries live in this process's memory: a restart drops those not yet made (docs/api-coverage.md).
// - Bounded: a time limit per request, retries with growing pauses after a timeout or connection
//   error only, a size cap on the answer, no redirects, a bound on deliveries running and waiting.
// - On final failure the bot says "Failure! …" in the conversation and its owner gets a direct
//   message from the Notification Bot, with the reference's wording.
// - Every attempt is a row of the webhook delivery log (direction "outgoing"); the service token
//   is never logged, and neither is the payload URL (it may carry a secret of its own).
import type { Logger } from "pino";
import type { Config } from "../../config";
import { botServicesOf, type BotServiceRow } from "../../db/botServices";
import { memberIdsOfGroups } from "../../db/groups";
import type { Db } from "../../db/knex";
import { userMessageFlagsFor } from "../../db/messages";
import { BOT_TYPE, bool, type RealmRow, type UserRow } from "../../db/rows";
import { findUserById, findUsersByIds } from "../../db/users";
import { insertWebhookDeliveries } from "../../db/webhookOps";
import { ApiError } from "../../errors";
import type { EventBus } from "../../events/bus";
import {
  OUTGOING_WEBHOOK_CONCURRENCY,
  OUTGOING_WEBHOOK_MAX_PENDING,
  OUTGOING_WEBHOOK_MAX_RESPONSE_BYTES,
  OUTGOING_WEBHOOK_MAX_RETRIES,
  OUTGOING_WEBHOOK_RETRY_BACKOFF_MS,
  OUTGOING_WEBHOOK_TIMEOUT_SECONDS,
} from "../../limits";
import { updateMessageFlags } from "../messages/flags";
import type { CommittedSend, MessageSender } from "../messages/groupCommit";
import { formatMessages } from "../messages/format";
import type { Destination } from "../messages/send";
import { realmUrl } from "../realms/realms";
import { SERVICE_INTERFACE } from "../users/bots";
import { toRow, type DeliveryOutcome } from "./deliveryLog";
import { postOutgoing, type OutgoingResponse } from "./outgoingRequest";

export interface OutgoingSettings {
  timeoutMs: number;
  maxRetries: number;
  /** Pause before the first retry; doubled for each further one. */
  backoffMs: number;
  maxResponseBytes: number;
  concurrency: number;
  maxPending: number;
}

export const DEFAULT_OUTGOING_SETTINGS: OutgoingSettings = {
  timeoutMs: OUTGOING_WEBHOOK_TIMEOUT_SECONDS * 1000,
  maxRetries: OUTGOING_WEBHOOK_MAX_RETRIES,
  backoffMs: OUTGOING_WEBHOOK_RETRY_BACKOFF_MS,
  maxResponseBytes: OUTGOING_WEBHOOK_MAX_RESPONSE_BYTES,
  concurrency: OUTGOING_WEBHOOK_CONCURRENCY,
  maxPending: OUTGOING_WEBHOOK_MAX_PENDING,
};

/** The delivery log's `integration` for outgoing deliveries. */
export const OUTGOING_INTEGRATION = "outgoing-webhook";
const USER_AGENT = "ZulipOutgoingWebhook/1.0 (Switchboard)";
const CLIENT = "OutgoingWebhookResponse";

type Trigger = "mention" | "direct_message";

interface Delivery {
  realm: RealmRow;
  bot: UserRow;
  service: BotServiceRow;
  trigger: Trigger;
  sent: CommittedSend;
}

/** How one delivery ended, for the bot's conversation, its owner and the log. */
interface Failure {
  /** After "Failure! " in the conversation. */
  message: string;
  /** The owner notice's detail line. */
  detail: string;
  /** The answer's body, quoted in the owner notice. */
  body?: string;
}

export class OutgoingWebhooks {
  settings: OutgoingSettings = { ...DEFAULT_OUTGOING_SETTINGS };
  private readonly waiting: Delivery[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly shutdown = new AbortController();
  private dropped = 0;

  constructor(
    private readonly deps: {
      db: Db;
      messageSender: MessageSender;
      bus: Pick<EventBus, "publish">;
      logger: Logger;
      config: Pick<Config, "externalUrl" | "webhookLog">;
    },
  ) {
    deps.messageSender.onCommitted((sent) => this.committed(sent));
  }

  /** Called for each committed batch: finds the triggered bots without blocking the sender. */
  committed(sent: CommittedSend[]): void {
    if (this.shutdown.signal.aborted) return;
    for (const item of sent) {
      const { sender } = item.send.input;
      // A bot's message never triggers (the reference's loop guard), nor does one mentioning nobody.
      if (bool(sender.is_bot)) continue;
      const { mentions } = item.send;
      if (item.send.stream && mentions.userIds.size === 0 && mentions.groupIds.size === 0) continue;
      if (!item.send.stream && !item.send.participants.some((u) => u.bot_type === BOT_TYPE.outgoingWebhook)) continue;
      this.track(this.enqueueTriggered(item));
    }
  }

  /** Resolves once no delivery is running or waiting (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Drops waiting deliveries, aborts running ones (a restart loses them: see the file's header). */
  async close(): Promise<void> {
    this.shutdown.abort();
    this.waiting.length = 0;
    await this.idle();
  }

  private track(work: Promise<void>): void {
    const running = work
      .catch((err) => this.deps.logger.error({ err }, "outgoing webhook delivery failed"))
      .finally(() => {
        this.running.delete(running);
        this.pump();
      });
    this.running.add(running);
  }

  private async enqueueTriggered(item: CommittedSend): Promise<void> {
    const { realm, sender } = item.send.input;
    let bots: UserRow[];
    let trigger: Trigger;
    if (item.send.stream) {
      const { userIds, groupIds } = item.send.mentions;
      const ids = new Set([...userIds, ...(await memberIdsOfGroups(this.deps.db, [...groupIds]))]);
      bots = await findUsersByIds(this.deps.db, realm.id, [...ids]);
      trigger = "mention";
    } else {
      bots = item.send.participants;
      trigger = "direct_message";
    }
    bots = bots.filter((u) => u.bot_type === BOT_TYPE.outgoingWebhook && bool(u.is_active) && u.id !== sender.id);
    if (bots.length === 0) return;
    const services = await botServicesOf(
      this.deps.db,
      bots.map((b) => b.id),
    );
    for (const service of services) {
      const bot = bots.find((b) => b.id === service.bot_id)!;
      if (this.waiting.length >= this.settings.maxPending) {
        if (this.dropped++ % 100 === 0)
          this.deps.logger.warn({ botId: bot.id, dropped: this.dropped }, "outgoing webhooks are behind: dropped");
        continue;
      }
      this.waiting.push({ realm, bot, service, trigger, sent: item });
    }
    this.pump();
  }

  /** Starts waiting deliveries while fewer than `concurrency` run (the trigger lookups count too). */
  private pump(): void {
    while (this.waiting.length > 0 && this.running.size < this.settings.concurrency) {
      this.track(this.deliver(this.waiting.shift()!));
    }
  }

  private async deliver(d: Delivery): Promise<void> {
    const slack = d.service.interface === SERVICE_INTERFACE.slack;
    if (slack && d.trigger === "direct_message") {
      // The reference's answer: Slack's format has no direct messages.
      const failure = { message: "Slack outgoing webhooks don't support direct messages.", detail: "" };
      await this.log(d, {
        startedMs: Date.now(),
        status: 0,
        code: "UNSUPPORTED",
        outcome: "error",
        error: failure.message,
      });
      await this.reply(d, `Failure! ${failure.message}`);
      return;
    }
    const request = slack ? await this.slackRequest(d) : await this.genericRequest(d);
    let failedTries = 0;
    for (;;) {
      const startedMs = Date.now();
      const response = await postOutgoing({
        url: d.service.base_url,
        headers: { "content-type": request.contentType, "user-agent": USER_AGENT },
        body: request.body,
        timeoutMs: this.settings.timeoutMs,
        maxResponseBytes: this.settings.maxResponseBytes,
        signal: this.shutdown.signal,
      });
      if (response.kind === "aborted") return;
      const logged = { startedMs, request };
      if (response.kind === "timeout" || response.kind === "connection") {
        const error =
          response.kind === "timeout"
            ? `Request timed out after ${this.settings.timeoutMs / 1000} seconds.`
            : `A connection error occurred (${response.error}). Is my bot server down?`;
        failedTries++;
        const retry = failedTries <= this.settings.maxRetries;
        const pause = this.settings.backoffMs * 2 ** (failedTries - 1);
        await this.log(d, {
          ...logged,
          status: 0,
          code: response.kind === "timeout" ? "TIMEOUT" : "CONNECTION_ERROR",
          outcome: "error",
          error: retry ? `${error} Retry ${failedTries} of ${this.settings.maxRetries} in ${pause} ms.` : error,
        });
        if (retry && (await this.pause(pause))) continue;
        if (this.shutdown.signal.aborted) return;
        const detail =
          response.kind === "timeout"
            ? `Request timed out after ${this.settings.timeoutMs / 1000} seconds.`
            : "A connection error occurred. Is my bot server down?";
        return this.fail(d, { message: "Bot is unavailable", detail });
      }
      return this.answered(d, response, logged);
    }
  }

  /** Resolves true after `ms`, or false at once when the server shuts down. */
  private pause(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const signal = this.shutdown.signal;
      if (signal.aborted) return resolve(false);
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve(true);
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private async answered(
    d: Delivery,
    response: Exclude<OutgoingResponse, { kind: "timeout" | "connection" | "aborted" }>,
    logged: { startedMs: number; request: { logBody: string } },
  ): Promise<void> {
    if (response.kind === "tooLarge") {
      const limit = `OUTGOING_WEBHOOK_MAX_RESPONSE_BYTES, ${this.settings.maxResponseBytes} bytes`;
      const message = `The bot's response is larger than the limit (${limit}).`;
      await this.log(d, {
        ...logged,
        status: response.status,
        code: "RESPONSE_TOO_LARGE",
        outcome: "error",
        error: message,
      });
      return this.fail(d, { message, detail: `The webhook's response was larger than the limit (${limit}).` });
    }
    const { status, body } = response;
    if (status < 200 || status > 299) {
      const redirect = status >= 300 && status <= 399 ? " (redirects are not followed)" : "";
      await this.log(d, {
        ...logged,
        status,
        code: "HTTP_ERROR",
        outcome: "error",
        error: `Third party responded with ${status}${redirect}`,
      });
      return this.fail(d, {
        message: `Third party responded with ${status}`,
        detail: `The webhook got a response with status code *${status}*.${redirect}`,
        body,
      });
    }
    let content: string | undefined;
    try {
      content = replyContent(body, d.service.interface);
    } catch (err) {
      const message = (err as Error).message;
      await this.log(d, { ...logged, status, code: "INVALID_RESPONSE", outcome: "error", error: message });
      return this.fail(d, {
        message,
        detail:
          "The outgoing webhook server attempted to send a message in Zulip, but that request resulted in " +
          `the following error:\n> ${message}`,
        body,
      });
    }
    if (content === undefined) {
      await this.log(d, {
        ...logged,
        status,
        outcome: "ignored",
        ignoredReason: "no reply (response_not_required or no content)",
      });
      return this.markTriggerRead(d);
    }
    try {
      const { id } = await this.deps.messageSender.send({
        realm: d.realm,
        sender: d.bot,
        destination: this.conversation(d),
        content,
        client: CLIENT,
        replyToTrigger: true,
      });
      await this.log(d, { ...logged, status, outcome: "message", messageIds: [id] });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      await this.log(d, { ...logged, status, code: err.code, outcome: "error", error: err.message });
      return this.fail(d, {
        message: err.message,
        detail:
          "The outgoing webhook server attempted to send a message in Zulip, but that request resulted in " +
          `the following error:\n> ${err.message}`,
        body,
      });
    }
    await this.markTriggerRead(d);
  }

  /**
   * After a successful delivery the bot has read the message that triggered it, as the reference
   * marks it (only where the bot has a copy: a channel it is not subscribed to gives it none).
   */
  private async markTriggerRead(d: Delivery): Promise<void> {
    try {
      const { id } = d.sent;
      if (!(await userMessageFlagsFor(this.deps.db, d.bot.id, [id])).has(id)) return;
      const update = { messageIds: [id], op: "add" as const, flag: "read" };
      await this.deps.bus.publish(await updateMessageFlags(this.deps.db, d.realm, d.bot, update));
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message, botId: d.bot.id }, "could not mark a bot's message read");
    }
  }

  /** The triggering conversation: the same channel and topic, or the same direct-message recipients. */
  private conversation(d: Delivery): Destination {
    const { send } = d.sent;
    if (send.stream) return { type: "stream", stream: send.stream.id, topic: send.row.topic };
    return { type: "private", to: send.participants.map((u) => u.id) };
  }

  /** The message as GET /messages shows it, raw content plus rendered_content (the reference's payload). */
  private async messageDict(d: Delivery): Promise<Record<string, unknown>> {
    const { send, id, dateSent } = d.sent;
    const [message] = await formatMessages(
      this.deps.db,
      d.realm,
      [{ ...send.row, id, date_sent: dateSent, flags: null }],
      {
        applyMarkdown: false,
        known: {
          users: send.stream ? [send.input.sender] : send.participants,
          streams: send.stream ? [send.stream] : [],
          noReactions: true,
        },
      },
    );
    const { flags: _flags, ...rest } = message;
    return { ...rest, rendered_content: send.row.rendered_content };
  }

  private async genericRequest(d: Delivery) {
    const payload = {
      bot_email: d.bot.email,
      bot_full_name: d.bot.full_name,
      data: d.sent.send.row.content,
      message: await this.messageDict(d),
      token: d.service.token,
      trigger: d.trigger,
    };
    return {
      contentType: "application/json",
      body: JSON.stringify(payload),
      logBody: JSON.stringify({ ...payload, token: "(not logged)" }),
    };
  }

  /** Slack's outgoing-webhook fields, form-encoded (channel messages only). */
  private async slackRequest(d: Delivery) {
    const { send, dateSent } = d.sent;
    const fields: Record<string, string> = {
      token: d.service.token,
      team_id: `T${d.realm.id}`,
      team_domain: new URL(realmUrl(d.realm, this.deps.config.externalUrl)).host,
      channel_id: `C${send.stream!.id}`,
      channel_name: send.stream!.name,
      thread_ts: String(dateSent),
      timestamp: String(dateSent),
      user_id: `U${send.input.sender.id}`,
      user_name: send.input.sender.full_name,
      text: send.row.content,
      trigger_word: d.trigger,
      service_id: String(d.bot.id),
    };
    const { token: _token, ...logged } = fields;
    return {
      contentType: "application/x-www-form-urlencoded",
      body: new URLSearchParams(fields).toString(),
      logBody: new URLSearchParams(logged).toString(),
    };
  }

  /** The bot's "Failure! …" in the conversation, and the owner's notice. */
  private async fail(d: Delivery, failure: Failure): Promise<void> {
    await this.reply(d, `Failure! ${failure.message}`);
    await this.notifyOwner(d, failure);
  }

  /** Posts as the bot; a failure here is only logged (nowhere else to say it). */
  private async reply(d: Delivery, content: string): Promise<void> {
    try {
      await this.deps.messageSender.send({
        realm: d.realm,
        sender: d.bot,
        destination: this.conversation(d),
        content,
        client: CLIENT,
        replyToTrigger: true,
      });
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message, botId: d.bot.id },
        "could not post an outgoing bot's failure",
      );
    }
  }

  /** The reference's notice to the bot's owner, sent by the organization's Notification Bot. */
  private async notifyOwner(d: Delivery, failure: Failure): Promise<void> {
    try {
      if (d.bot.bot_owner_id === null || !d.realm.notification_bot_id) return;
      const sender = await findUserById(this.deps.db, d.realm.id, d.realm.notification_bot_id);
      if (!sender) return;
      let content =
        `[A message](${this.messageLink(d)}) to your bot @_**${d.bot.full_name}** triggered an outgoing webhook.\n` +
        failure.detail;
      if (failure.body)
        content += `\nThe response contains the following payload:\n\`\`\`\n${failure.body.slice(0, 2000)}\n\`\`\``;
      await this.deps.messageSender.send({
        realm: d.realm,
        sender,
        destination: { type: "private", to: [d.bot.bot_owner_id] },
        content,
        client: "Internal",
      });
    } catch (err) {
      this.deps.logger.warn(
        { err: (err as Error).message, botId: d.bot.id },
        "could not tell a bot's owner of a failure",
      );
    }
  }

  private messageLink(d: Delivery): string {
    const { send, id } = d.sent;
    const base = realmUrl(d.realm, this.deps.config.externalUrl);
    const encode = (s: string) => encodeURIComponent(s).replace(/\./g, "%2E").replace(/%/g, ".");
    if (send.stream) {
      const channel = `${send.stream.id}-${encode(send.stream.name.replace(/ /g, "-"))}`;
      return `${base}/#narrow/channel/${channel}/topic/${encode(send.row.topic)}/near/${id}`;
    }
    return `${base}/#narrow/dm/${send.participants.map((u) => u.id).join(",")}/near/${id}`;
  }

  /** One attempt's row in the delivery log (written here, off the send path; never throws). */
  private async log(
    d: Delivery,
    entry: {
      startedMs: number;
      request?: { contentType?: string; logBody: string };
      status: number;
      code?: string;
      outcome: DeliveryOutcome;
      error?: string;
      ignoredReason?: string;
      messageIds?: number[];
    },
  ): Promise<void> {
    const config = this.deps.config.webhookLog;
    if (!config.enabled) return;
    try {
      const row = toRow(
        {
          realmId: d.realm.id,
          botId: d.bot.id,
          integration: OUTGOING_INTEGRATION,
          event: d.trigger,
          eventKey: d.service.interface === SERVICE_INTERFACE.slack ? "slack" : "generic",
          deliveryId: String(d.sent.id),
          startedMs: entry.startedMs,
          finishedMs: Date.now(),
          status: entry.status,
          code: entry.code,
          outcome: entry.outcome,
          messageIds: entry.messageIds,
          ignoredReason: entry.ignoredReason,
          error: entry.error,
          headers: { "content-type": entry.request?.contentType, "user-agent": USER_AGENT },
          query: {},
          body: Buffer.from(entry.request?.logBody ?? ""),
        },
        config.maxBodyBytes,
      );
      await insertWebhookDeliveries(this.deps.db, [{ ...row, direction: "outgoing" }]);
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, "could not log an outgoing webhook delivery");
    }
  }
}

/**
 * The reply in a 2xx answer, as the reference reads it; undefined for none. Generic: `content`
 * (or the older `response_string`) unless `response_not_required`; Slack: `text`. The JSON string
 * "" is the old botserver's "no reply". Throws with the reference's texts for a bad answer.
 */
export function replyContent(body: string, iface: number): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error("Invalid JSON in response");
  }
  if (json === "") return undefined;
  if (json === null || typeof json !== "object" || Array.isArray(json)) throw new Error("Invalid response format");
  const answer = json as Record<string, unknown>;
  let content: unknown;
  if (iface === SERVICE_INTERFACE.slack) content = answer.text;
  else {
    if (answer.response_not_required) return undefined;
    content = answer.content ?? answer.response_string;
  }
  if (typeof content !== "string" || content.trim() === "") return undefined;
  return content;
}
