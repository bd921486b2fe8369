// Flock attachments carry their content in several places: a title and description, FlockML
// (an HTML dialect) in `views.flockml`, a widget or image view with a URL, and buttons whose
// action opens a URL. This reads each attachment into plain parts the template can show.
import {
  defineTransform,
  htmlToMarkdown,
  nonEmptyText,
  type SafeMarkdown,
  safeMarkdown,
} from "../../src/webhooks/plugin";
import type { Payload } from "./schema";

interface Card {
  title?: string;
  description?: string;
  body?: SafeMarkdown;
  view?: string;
  buttons: { name?: string; url?: string }[];
}

// Payload parts the schema leaves free-form.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

function httpUrl(v: unknown): string | undefined {
  const s = nonEmptyText(v);
  return s && /^https?:\/\//i.test(s) ? s : undefined;
}

function cardOf(a: Obj): Card {
  const views: Obj = a.views && typeof a.views === "object" ? a.views : {};
  const flockml = nonEmptyText(views.flockml) ?? nonEmptyText(views.html?.inline);
  const body = flockml ? htmlToMarkdown(flockml).trim() : "";
  const buttons = (Array.isArray(a.buttons) ? a.buttons : [])
    .map((b: Obj) => ({ name: nonEmptyText(b?.name), url: httpUrl(b?.action?.url) }))
    // A button that only sends an event back to the Flock app means nothing to a reader here.
    .filter((b: { name?: string; url?: string }) => b.name && b.url);
  return {
    title: nonEmptyText(a.title),
    description: nonEmptyText(a.description),
    body: safeMarkdown(body) || undefined,
    view: httpUrl(views.widget?.src) ?? httpUrl(views.image?.original?.src) ?? httpUrl(a.url),
    buttons,
  };
}

export default defineTransform<Payload, { cards: Card[] }>((payload) => ({
  cards: (payload.attachments ?? []).filter((a) => a && typeof a === "object").map((a) => cardOf(a as Obj)),
}));
