// Slack-compatible incoming webhook: `text`, `blocks` and legacy `attachments` → one Zulip
// message. The Markdown conversion lives in mrkdwn.ts, blocks.ts and attachments.ts; this file
// decides what goes in and in which order, and which topic the message gets.
import { refusePayload, type TransformContext } from "../../src/webhooks/plugin";
import { renderAttachments } from "./attachments";
import { paragraphs, renderBlocks, withMarker } from "./blocks";
import { convertMrkdwn } from "./mrkdwn";

export const DEFAULT_TOPIC = "(no topic)";

export interface SlackMessage {
  text?: string | null;
  blocks?: unknown[] | null;
  attachments?: unknown[] | null;
  channel?: string | null;
  icon_emoji?: string | null;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** Slack's `channel` ("#deploys") names where the sender meant to post: it becomes the topic. */
export function topicFor(channel: unknown): string {
  const name = typeof channel === "string" ? channel.trim().replace(/^#/, "").trim() : "";
  return name || DEFAULT_TOPIC;
}

/** `:zap:` in front of the first line, or on a line of its own when that line is a heading, list…. */
function withEmoji(markdown: string, emoji: unknown): string {
  if (typeof emoji !== "string" || !/^:[\w+'-]+:$/.test(emoji.trim())) return markdown;
  return withMarker(emoji.trim(), markdown);
}

export function renderMessage(payload: SlackMessage): string {
  const text = convertMrkdwn(payload.text);
  const blocks = renderBlocks(payload.blocks);
  // With blocks, Slack treats `text` as the notification fallback; it is kept unless the blocks
  // already say exactly the same thing, so no words of the payload are lost.
  const showText = text !== "" && !squash(blocks).includes(squash(text));
  return withEmoji(
    paragraphs([showText ? text : "", blocks, ...renderAttachments(payload.attachments)]),
    payload.icon_emoji,
  );
}

/**
 * A body with nothing to show is refused as Slack refuses it (400 `no_text`), so the sender's log
 * says what was wrong instead of a success that posted nothing.
 */
export default function transform(
  payload: SlackMessage,
  _context: TransformContext,
): { slack_markdown: string; slack_topic: string } {
  const markdown = renderMessage(payload);
  if (markdown === "")
    refusePayload(
      "Invalid Slack Incoming payload: no_text: nothing to show (text, blocks and attachments are missing or empty)",
      "/text",
    );
  return { slack_markdown: markdown, slack_topic: topicFor(payload.channel) };
}
