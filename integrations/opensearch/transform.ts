// OpenSearch posts the monitor action's message text as it was written (Mustache already filled
// in). A first line `topic: <name>` picks the topic, as the reference does; the rest is the message.
import { defineTransform, nonEmptyText } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

const TOPIC_PREFIX = "topic:";

export default defineTransform<Payload, { topicLine?: string; message: string }>((payload) => {
  const text = payload.body;
  const lineEnd = text.indexOf("\n");
  const first = lineEnd === -1 ? text : text.slice(0, lineEnd);
  if (!first.trimStart().toLowerCase().startsWith(TOPIC_PREFIX)) return { message: text.trim() };
  const topicLine = nonEmptyText(first.trimStart().slice(TOPIC_PREFIX.length));
  return { topicLine, message: lineEnd === -1 ? "" : text.slice(lineEnd + 1).trim() };
});
