// A channel's topics policy, applied when a message is sent there. The realm has no policy of
// its own here, so `inherit` behaves like `allow_empty_topic`.
import type { StreamRow } from "../db/rows";
import { Errors } from "../errors";

export function checkTopicsPolicy(stream: Pick<StreamRow, "topics_policy">, topic: string): void {
  if (stream.topics_policy === "disable_empty_topic" && topic === "") {
    throw Errors.badRequest("Sending messages to the general chat is not allowed in this channel.");
  }
  if (stream.topics_policy === "empty_topic_only" && topic !== "") {
    throw Errors.badRequest("Only the general chat topic is allowed in this channel.");
  }
}
