// Slack: the message text (an outgoing webhook's `text`, an Events API message's `event.text`)
// converted from Slack mrkdwn (mrkdwn.ts), and where the message goes: each Slack channel as a
// topic, as a channel of its own, or (the default) all under one topic. The sender's and the
// channel's names come from the templates (the outgoing webhook's own fields, or Slack's API when
// a token is given): this only marks where they go. Other people and channels the text mentions
// are named here, from the per-id lookups' answers in the context (none in a replay: ids stay).
import { defineTransform, firstText, nonEmptyText, type TransformContext } from "../../src/webhooks/plugin";
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

/** users.info's answer, as far as a name goes (the shape is Slack's: every field may be missing). */
interface UsersInfo {
  user?: { real_name?: unknown; name?: unknown; profile?: { real_name?: unknown; display_name?: unknown } };
}
/** conversations.info's answer, as far as a name goes. */
interface ConversationsInfo {
  channel?: { name?: unknown };
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A person's name in the order senderName reads it: real name, display name, handle. */
function userName(answer: UsersInfo): string | undefined {
  const user = asObject(answer.user) as UsersInfo["user"];
  const profile = asObject(user?.profile) as NonNullable<UsersInfo["user"]>["profile"];
  return firstText(user?.real_name, profile?.real_name, profile?.display_name, user?.name);
}

function channelName(answer: ConversationsInfo): string | undefined {
  return firstText((asObject(answer.channel) as ConversationsInfo["channel"])?.name);
}

/**
 * A per-id lookup's answers (manifest `mentionedUsers` / `mentionedChannels`: `{id: answer}`) as
 * names by id; an id Slack did not answer, or answered without a name, is not there (it stays an id).
 */
function namesById<T>(answers: unknown, nameOf: (answer: T) => string | undefined): Map<string, string> {
  const names = new Map<string, string>();
  for (const [id, answer] of Object.entries(asObject(answers) ?? {})) {
    const named = asObject(answer);
    const name = named === undefined ? undefined : nameOf(named as T);
    if (name !== undefined) names.set(id, name);
  }
  return names;
}

export default defineTransform<Payload, SlackView>((payload: Payload, context: TransformContext) => {
  const mapping = mappingOf(context.options);
  const event = payload.event;
  const text = event ? event.text : payload.text;
  const { markdown, block } = convertMrkdwn(text, {
    user: nonEmptyText(event?.user),
    channel: nonEmptyText(event?.channel),
    userNames: namesById(context.api?.mentionedUsers, userName),
    channelNames: namesById(context.api?.mentionedChannels, channelName),
  });
  return {
    slack_text: markdown,
    slack_block: block,
    slack_mapping: mapping,
    slack_user_token: USER_TOKEN,
    slack_channel_token: CHANNEL_TOKEN,
  };
});
