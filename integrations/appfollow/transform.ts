// AppFollow posts its review the way it posts to Slack: `*bold*` and `_italic_` in Slack's
// spelling, links already as Markdown. This rewrites the emphasis into Markdown; the template
// then shows it through `{{markdown}}`, which neutralises mentions.
import { defineTransform } from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

/** Slack emphasis → Markdown. Each run stops at the next delimiter or line end (linear time). */
export function slackEmphasis(text: string): string {
  return text.replace(/\*([^*\n]+)\*/g, "**$1**").replace(/(^|[^\w])_([^_\n]+)_(?!\w)/g, "$1*$2*");
}

export default defineTransform<Payload, { body: string }>((payload) => ({
  body: slackEmphasis(payload.text.trim()),
}));
