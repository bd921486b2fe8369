// What a delivery would store, without HTTP or a database: the pipeline as a delivery runs it
// (settlePipeline), then what the webhook service and message sending do to its messages before
// storing them (length limits, the stored topic and content forms; a direct message has no topic),
// and errors as the answer's status and code. The fixture suite replays every case through it;
// `npm run fixtures:compare` checks that it agrees with the real app for every case.
import type { RealmRow } from "../../db/rows";
import { ApiError, Errors } from "../../errors";
import type { ExpectedCase, ExpectedMessage } from "../../webhooks/fixtures";
import { limitMarkdown, limitTopic } from "../../webhooks/safeMarkdown";
import { settlePipeline, type RenderedMessage, type WebhookRequest } from "../../webhooks/pipeline";
import type { Integration } from "../../webhooks/registry";
import { normalizeContent, normalizeTopic } from "../messages/send";

/** A new organization's name for the empty topic (the realms table's default). */
const NEW_REALM: Pick<RealmRow, "empty_topic_display_name"> = { empty_topic_display_name: "general chat" };

/** The stored form of one rendered message. */
function stored(m: RenderedMessage, realm: typeof NEW_REALM): ExpectedMessage {
  const content = normalizeContent(limitMarkdown(m.content));
  const channel = m.channel !== undefined && !m.direct ? { channel: m.channel } : {};
  return { topic: m.direct ? "" : normalizeTopic(limitTopic(m.topic), realm), content, ...channel };
}

/**
 * The delivery's result in the fixture expected-file format: its message(s), `ignored`, or the
 * error answer, with the success answer's `reply` fields when it has some, and each message's
 * own `channel` when it names one. A channel is assumed to exist (a missing one is the webhook
 * service's business).
 * Throws what is not an ApiError (the server would answer 500).
 */
export function dryRunDelivery(
  integration: Integration,
  request: WebhookRequest,
  realm: Pick<RealmRow, "empty_topic_display_name"> = NEW_REALM,
): ExpectedCase {
  try {
    const result = settlePipeline(integration, request);
    if ("error" in result) throw result.error;
    const { outcome } = result;
    if (outcome.kind === "unsupported")
      throw Errors.unsupportedEvent(integration.manifest.displayName, outcome.event.eventType, outcome.reply);
    const reply = outcome.reply ? { reply: outcome.reply } : {};
    if (outcome.kind === "ignored") return { ignored: true, ...reply };
    // Storing can refuse too (a topic with a control character): the whole delivery is then an error.
    const messages = outcome.messages.map((m) => stored(m, realm));
    return messages.length === 1 ? { ...messages[0], ...reply } : { messages, ...reply };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: { status: error.status, code: error.code, msg: error.message } };
  }
}
