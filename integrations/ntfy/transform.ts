// ntfy's tags and actions come as JSON lists or as header text: `Tags: warning,backup` and
// `Actions: view, Open, https://…; http, Close door, https://…, clear=true`. Both become lists the
// template shows (actions with a URL as links: a chat message cannot make the request itself).
import { defineTransform, nonEmptyText } from "../../src/webhooks/plugin";

interface Action {
  action?: string;
  label?: string;
  url?: string;
}
interface Payload {
  tags?: string[] | string | null;
  actions?: Action[] | string | null;
}

/** One action of the header's short form: `<action>, <label>, <url>[, key=value…]` (the label may be quoted). */
function headerAction(text: string): Action {
  const [action, label, url] = text.split(",").map((part) => part.trim().replace(/^"(.*)"$/, "$1"));
  return { action, label, url: url && !url.includes("=") ? url : undefined };
}

export default defineTransform<Payload, { tagList?: string[]; actionLinks?: { label: string; url?: string }[] }>(
  (payload) => {
    const tags = typeof payload.tags === "string" ? payload.tags.split(",") : (payload.tags ?? []);
    const actions =
      typeof payload.actions === "string" ? payload.actions.split(";").map(headerAction) : payload.actions;
    const links = (actions ?? [])
      .filter((a) => a && typeof a === "object")
      .map((a) => ({ label: nonEmptyText(a.label) ?? nonEmptyText(a.action) ?? "action", url: nonEmptyText(a.url) }));
    const tagList = tags.map((t) => nonEmptyText(t)).filter((t): t is string => t !== undefined);
    return {
      tagList: tagList.length > 0 ? tagList : undefined,
      actionLinks: links.length > 0 ? links : undefined,
    };
  },
);
