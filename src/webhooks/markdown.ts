// Markdown-safe text for webhook messages: escaping values, and cutting messages and topics
// to the server's limits without leaving a code fence open.
import { MAX_MESSAGE_LENGTH, MAX_TOPIC_LENGTH } from "../services/messages";

const INLINE_SPECIAL = /[\\`*_~[\]<>|$]/g;

/** Backslash-escapes characters that would start Markdown formatting (and block markers at line start). */
export function escapeMarkdown(text: string): string {
  return text
    .replace(INLINE_SPECIAL, "\\$&")
    .replace(/^(\s*)(#{1,6}|[+-]|\d+[.)])(?=\s|$)/gm, (_m, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\${marker.slice(-1)}` : `${space}\\${marker}`,
    );
}

/** Link text may contain anything but unbalanced brackets; escape those and formatting. */
export function escapeLinkText(text: string): string {
  return escapeMarkdown(text.replace(/\s*\n\s*/g, " "));
}

/** Characters that would end a Markdown link destination early. */
export function escapeUrl(url: string): string {
  return url.replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Cuts to `max` characters (code points) at a line break when possible, closing an open fence. */
export function limitMarkdown(text: string, max = MAX_MESSAGE_LENGTH, note = "[message truncated]"): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const reserve = note.length + 16; // room for a closing fence and the note
  let kept = chars.slice(0, Math.max(0, max - reserve)).join("");
  const lastBreak = kept.lastIndexOf("\n");
  if (lastBreak > kept.length / 2) kept = kept.slice(0, lastBreak);
  let openFence: string | undefined;
  for (const line of kept.split("\n")) {
    const m = FENCE.exec(line);
    if (!m) continue;
    if (openFence === undefined) openFence = m[1];
    else if (m[1][0] === openFence[0] && m[1].length >= openFence.length && line.trim() === m[1]) openFence = undefined;
  }
  return `${kept.replace(/\s+$/, "")}\n${openFence ? `${openFence}\n` : ""}${note}`;
}

/** Topics over the limit become 57 characters + "..." (the reference server's rule). */
export function limitTopic(topic: string, max = MAX_TOPIC_LENGTH): string {
  const chars = [...topic.replace(/\s+/g, " ").trim()];
  return chars.length <= max ? chars.join("") : chars.slice(0, max - 3).join("") + "...";
}
