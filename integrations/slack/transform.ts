// Slack: the message text (an outgoing webhook's `text`, an Events API message's `event.text`)
// converted from Slack mrkdwn (mrkdwn.ts), and where the message goes: each Slack channel as a
// topic, as a channel of its own, or (the default) all under one topic. Names come from the templates (the outgoing
// webhook's own fields, or Slack's API when a token is given); this only marks where they go.
import { defineTransform, nonEmptyText, type TransformContext } from "../../src/webhooks/plugin";
import { CHANNEL_TOKEN, USER_TOKEN, convertMrkdwn } from "./mrkdwn";
import type { Payload } from "./schema";

/** `single`: neither option given, every message in the URL's channel under one topic. */
export type Mapping = "single" | "topics" | "channels";

export type SlackView = {
  slack_text: string;
  /** The text starts with a block (quote, list, code): it goes on the line after the sender's name. */
  slack_block: boolean;
  slack_mapping: Mapping;
  slack_user_token: string;
  slack_channel_token: string;
};

/**
 * `channels_map_to_topics` (the reference's option: 1 or 0) or, without it, `mapping`
 * (`topics` / `channels`, the integration page's choice). Blank counts as not given; any other
 * value never gets here: the manifest lists each option's values, and the framework refuses the rest.
 */
export function mappingOf(options: Record<string, string | undefined>): Mapping {
  const toTopics = options.channels_map_to_topics;
  if (toTopics === "1") return "topics";
  if (toTopics === "0") return "channels";
  if (options.mapping === "topics") return "topics";
  if (options.mapping === "channels") return "channels";
  return "single";
}

export default defineTransform<Payload, SlackView>((payload: Payload, context: TransformContext) => {
  const mapping = mappingOf(context.options);
  const event = payload.event;
  const text = event ? event.text : payload.text;
  const { markdown, block } = convertMrkdwn(text, {
    user: nonEmptyText(event?.user),
    channel: nonEmptyText(event?.channel),
  });
  return {
    slack_text: markdown,
    slack_block: block,
    slack_mapping: mapping,
    slack_user_token: USER_TOKEN,
    slack_channel_token: CHANNEL_TOKEN,
  };
});
