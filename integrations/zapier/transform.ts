// The applet/Zap writes the body itself, so `topic` and `subject` may be missing or not even
// text (an ingredient that expands to an object): only a non-empty string names the topic.
import { nonEmptyText as text, type TransformContext } from "../../src/webhooks/plugin";

export default function transform(
  payload: { topic?: unknown; subject?: unknown },
  _context: TransformContext,
): { topicText?: string } {
  return { topicText: text(payload.topic) ?? text(payload.subject) };
}
