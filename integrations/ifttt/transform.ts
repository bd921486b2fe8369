// The applet/Zap writes the body itself, so `topic` and `subject` may be missing or not even
// text (an ingredient that expands to an object): only a non-empty string names the topic.
import type { TransformContext } from "../../src/webhooks/plugin";

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

export default function transform(
  payload: { topic?: unknown; subject?: unknown },
  _context: TransformContext,
): { topicText?: string } {
  return { topicText: text(payload.topic) ?? text(payload.subject) };
}
