// A Teams webhook body → Markdown. Two formats arrive at the same URL: the O365 connector
// MessageCard (title, text, sections with activity and facts, potentialAction) and Adaptive
// Cards, bare or in the Workflows envelope `{type: "message", attachments: [{content}]}`. Card
// elements nest (Container → ColumnSet → Column → …), so they are walked recursively; the
// body's depth is already bounded by the JSON parser. Actions that open a URL become links;
// `<at>Name</at>` mentions become plain names.
import { colorMarker, defineTransform, escapeMarkdown, markdownLink, nonEmptyText } from "../../src/webhooks/plugin";

type Obj = Record<string, unknown>;
interface Payload {
  title?: string | null;
  summary?: string | null;
  text?: string | null;
  themeColor?: string | null;
  sections?: Obj[] | null;
  potentialAction?: Obj[] | null;
  attachments?: Obj[] | null;
  type?: string;
  body?: Obj[] | null;
}

const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj) : []);
const join = (parts: string[], sep = "\n\n") => parts.filter(Boolean).join(sep);

/** Teams Markdown, with `<at>` mentions as plain names. */
function text(value: unknown): string {
  const t = nonEmptyText(value);
  return t
    ? t.replace(/\r\n?/g, "\n").replace(/<at>([^<>]{0,100})<\/at>/g, (_m, name: string) => escapeMarkdown(`@${name}`))
    : "";
}

const facts = (list: unknown, nameKey: string): string =>
  objects(list)
    .map((f) => {
      const name = nonEmptyText(f[nameKey]);
      const value = text(f.value);
      return name ? `* **${escapeMarkdown(name)}**: ${value}` : value ? `* ${value}` : "";
    })
    .filter(Boolean)
    .join("\n");

// ---- O365 MessageCard ----

function cardAction(a: Obj): string {
  const name = nonEmptyText(a.name) ?? "Open";
  const targets = objects(a.targets);
  const uri = nonEmptyText((targets.find((t) => t.os === "default") ?? targets[0] ?? {}).uri);
  const legacy = Array.isArray(a.target) ? nonEmptyText(a.target[0]) : undefined;
  return uri || legacy ? markdownLink(uri ?? legacy, name) : "";
}

const actionLinks = (list: unknown): string => objects(list).map(cardAction).filter(Boolean).join(" · ");

function section(s: Obj): string {
  const title = nonEmptyText(s.activityTitle);
  return join([
    text(s.title) ? `**${text(s.title)}**` : "",
    join([title ? `**${text(title)}**` : "", text(s.activitySubtitle), text(s.activityText)], "\n"),
    text(s.text),
    facts(s.facts, "name"),
    objects(s.images)
      .map((i) => markdownLink(i.image, nonEmptyText(i.title) ?? "image"))
      .join(" · "),
    actionLinks(s.potentialAction),
  ]);
}

function messageCard(p: Payload): string {
  const marker = colorMarker(p.themeColor);
  const title = text(p.title);
  const head = title ? `**${title}**` : "";
  const parts = [head, text(p.text), ...objects(p.sections).map(section), actionLinks(p.potentialAction)];
  // The summary is the notification text: shown when the card has nothing else to say.
  const body = join(parts.some(Boolean) ? parts : [text(p.summary)]);
  return marker && body ? `${marker} ${body}` : body;
}

// ---- Adaptive Cards ----

function adaptiveAction(a: Obj): string {
  const title = nonEmptyText(a.title) ?? "Open";
  if (a.type === "Action.OpenUrl") return markdownLink(a.url, title);
  if (a.type === "Action.ShowCard") return join([`**${escapeMarkdown(title)}**`, adaptiveCard(obj(a.card))]);
  return "";
}

const adaptiveActions = (list: unknown): string => {
  const all = objects(list).map(adaptiveAction).filter(Boolean);
  const links = all.filter((a) => !a.startsWith("**"));
  return join([links.join(" · "), ...all.filter((a) => a.startsWith("**"))]);
};

function element(e: Obj): string {
  const styled = (inner: string) => {
    const marker = colorMarker(e.style);
    return marker && inner ? `${marker} ${inner}` : inner;
  };
  switch (e.type) {
    case "TextBlock": {
      const t = text(e.text);
      return t && e.weight === "Bolder" && !t.includes("**") && !t.includes("\n") ? `**${t}**` : t;
    }
    case "RichTextBlock":
      // Runs are joined as written: their own spaces separate them.
      return text(
        objects(e.inlines)
          .map((i) => (typeof i.text === "string" ? i.text : ""))
          .join(""),
      );
    case "FactSet":
      return facts(e.facts, "title");
    case "Image":
      return markdownLink(e.selectAction ? obj(e.selectAction).url : e.url, nonEmptyText(e.altText) ?? "image");
    case "ImageSet":
      return objects(e.images).map(element).filter(Boolean).join(" · ");
    case "ActionSet":
      return adaptiveActions(e.actions);
    case "Container":
    case "Column":
      return styled(elements(e.items));
    case "ColumnSet":
      return styled(join(objects(e.columns).map(element)));
    case "Table":
      return objects(e.rows)
        .map((r) =>
          objects(r.cells)
            .map((c) => elements(c.items).replace(/\n+/g, " "))
            .join(" | "),
        )
        .join("\n");
    default:
      return "";
  }
}

const elements = (list: unknown): string => join(objects(list).map(element));

function adaptiveCard(c: Obj): string {
  return join([elements(c.body), adaptiveActions(c.actions)]);
}

export default defineTransform<Payload, { teams_markdown: string }>((payload) => {
  const cards = objects(payload.attachments)
    .map((a) => obj(a.content))
    .filter((c) => c.type === "AdaptiveCard" || Array.isArray(c.body));
  const adaptive =
    payload.type === "AdaptiveCard" ? [adaptiveCard(payload as Obj)] : cards.map(adaptiveCard).filter(Boolean);
  // A Workflows message may carry a top-level summary or text beside its cards.
  const markdown = adaptive.length ? join([text(payload.text), ...adaptive]) : messageCard(payload);
  return { teams_markdown: markdown || text(payload.summary) };
});
