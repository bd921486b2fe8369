// Legacy message attachments → Markdown, in the order Slack shows them: pretext, author, title,
// text, fields, blocks, buttons, images, footer with time. `color` (the bar Slack draws beside the
// attachment: `good`, `warning`, `danger` or hex) is the attachment's status, kept as a coloured
// marker in front of its first line; icons are left out; `fallback` (a plain summary for
// notifications) is used only when nothing else is.
import { colorMarker, escapeMarkdown } from "../../src/webhooks/plugin";
import { listItem, objects, paragraphs, renderBlocks, renderElement, str, withMarker, type Obj } from "./blocks";
import { convertMrkdwn, link, timeMention } from "./mrkdwn";

/** `* **Title**: value`; either half may be missing (senders often send nulls). */
function fieldItem(field: Obj): string {
  const title = str(field.title).trim();
  const value = convertMrkdwn(str(field.value));
  if (title === "" && value === "") return "";
  if (title === "") return listItem(value);
  const bold = `**${escapeMarkdown(title)}**`;
  // A multi-line value (often a list of its own) starts on the line below its title.
  return listItem(
    value === "" ? bold : `${bold}${title.endsWith(":") ? "" : ":"}${value.includes("\n") ? "\n" : " "}${value}`,
  );
}

export function renderAttachment(a: Obj): string {
  const author = str(a.author_name).trim();
  const title = str(a.title).trim();
  const body = paragraphs([
    convertMrkdwn(a.pretext),
    author ? link(a.author_link, author) : "",
    title ? `**${link(a.title_link, title)}**` : "",
    convertMrkdwn(a.text),
    objects(a.fields).map(fieldItem).filter(Boolean).join("\n"),
    renderBlocks(a.blocks),
    objects(a.actions).map(renderElement).filter(Boolean).join(" · "),
    str(a.image_url) ? link(a.image_url, "image") : "",
    str(a.thumb_url) ? link(a.thumb_url, "thumbnail") : "",
    [convertMrkdwn(a.footer), timeMention(a.ts)].filter(Boolean).join(" · "),
  ]);
  return withMarker(colorMarker(a.color), body || convertMrkdwn(a.fallback));
}

export function renderAttachments(attachments: unknown): string[] {
  return objects(attachments)
    .map(renderAttachment)
    .filter((s) => s !== "");
}
