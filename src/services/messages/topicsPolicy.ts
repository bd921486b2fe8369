// A channel's topics policy, applied when a message is sent there. The realm has no policy of
// its own here, so `inherit` behaves like `allow_empty_topic`. Also who may start a new topic.
import { isUserInGroup } from "../../db/groups";
import type { Queryable } from "../../db/knex";
import { topicHasMessages } from "../../db/messages";
import { bool, type StreamRow, type UserRow } from "../../db/rows";
import { Errors } from "../../errors";

export function checkTopicsPolicy(stream: Pick<StreamRow, "topics_policy">, topic: string): void {
  if (stream.topics_policy === "disable_empty_topic" && topic === "") {
    throw Errors.badRequest("Sending messages to the general chat is not allowed in this channel.");
  }
  if (stream.topics_policy === "empty_topic_only" && topic !== "") {
    throw Errors.badRequest("Only the general chat topic is allowed in this channel.");
  }
}

/**
 * `can_create_topic_group`: only its members may send to a topic the channel has no message in
 * (system bots, like for posting, are exempt). Existing topics stay open to every sender.
 */
export async function checkCanCreateTopic(
  q: Queryable,
  sender: UserRow,
  stream: StreamRow,
  topic: string,
): Promise<void> {
  if (bool(sender.is_system_bot)) return;
  if (await isUserInGroup(q, sender.id, stream.can_create_topic_group as number, sender.role)) return;
  if (await topicHasMessages(q, stream.id, topic)) return;
  throw Errors.badRequest("You do not have permission to create new topics in this channel.");
}
