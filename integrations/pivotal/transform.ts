// What the Pivotal Tracker templates cannot work out themselves. Tracker posts two formats to
// the same URL: API v3 activity XML (`<activity>`: author, a ready sentence such as
// `Leo accepted "Story name"`, the stories as REST resources) and API v5 activity JSON
// (performer, `primary_resources`, and `changes` with original/new values). Both are turned into
// one view: who, the story (name, type, browser link), what changed, and any comment text.
// Pure: no I/O, no clock.
import {
  limitMarkdown,
  nonEmptyText,
  scalarText as text,
  type FieldChange,
  type TransformContext,
} from "../../src/webhooks/plugin";

/** Longest description or comment quoted in a message (the rest is cut with a note). */
export const MAX_QUOTED = 1500;

type Xml = string | { "#text"?: string } | undefined;

interface V3Story {
  id?: Xml;
  name?: Xml;
  story_type?: Xml;
  description?: Xml;
  current_state?: Xml;
  notes?: { note?: V3Note | V3Note[] };
}

interface V3Note {
  text?: Xml;
}

interface V3Activity {
  event_type?: Xml;
  author?: Xml;
  description?: Xml;
  stories?: { story?: V3Story | V3Story[] };
}

interface Resource {
  kind?: string;
  id?: number;
  name?: string;
  story_type?: string;
  url?: string;
}

interface V5Change {
  kind?: string;
  change_type?: string;
  name?: string;
  story_type?: string;
  original_values?: Record<string, unknown>;
  new_values?: Record<string, unknown>;
}

interface Payload {
  activity?: V3Activity;
  kind?: string;
  highlight?: string;
  message?: string;
  performed_by?: { name?: string };
  primary_resources?: Resource[];
  changes?: V5Change[];
}

/** A field change as the framework's `{{changeList}}` renders it. */
export type Change = FieldChange;

/** XML values arrive as strings, or as `{ "#text": … }` when the element has attributes. */
const xml = (v: Xml): string | undefined => {
  const s = typeof v === "string" ? v : typeof v === "object" && v ? v["#text"] : undefined;
  return nonEmptyText(s);
};
const first = <T>(v: T | T[] | undefined): T | undefined => (Array.isArray(v) ? v[0] : v);
const quoted = (v: unknown) => (text(v) ? limitMarkdown(String(v).trim(), MAX_QUOTED, "[…]") : "");
const words = (v: unknown) => text(v)?.replace(/_/g, " ");
const storyUrl = (id: unknown) => (text(id) ? `https://www.pivotaltracker.com/story/show/${text(id)}` : undefined);

/** The v3 sentence `Leo Franchi accepted "My story"` → the verb phrase and the quoted name. */
export function splitV3Sentence(sentence: string, author: string | undefined): { verb?: string; name?: string } {
  const rest = author && sentence.startsWith(`${author} `) ? sentence.slice(author.length + 1) : sentence;
  // The name is between the first `"` and a last one that only whitespace follows.
  const open = rest.indexOf('"');
  const close = rest.trimEnd().length - 1;
  if (open < 0 || close <= open || rest[close] !== '"') return { verb: rest.trim() || undefined };
  return { verb: rest.slice(0, open).trim().replace(/:$/, "").trim() || undefined, name: rest.slice(open + 1, close) };
}

function fromV3(activity: V3Activity): Record<string, unknown> {
  const story = first(activity.stories?.story) ?? {};
  const author = xml(activity.author);
  const { verb, name } = splitV3Sentence(xml(activity.description) ?? "", author);
  const eventType = xml(activity.event_type);
  const note = first(story.notes?.note);
  return {
    actor: author ?? "Someone",
    // A v3 comment's sentence quotes the comment, not the story: its story is only known by id.
    verb: eventType?.startsWith("note") ? "commented on" : (verb ?? "updated"),
    story: {
      id: xml(story.id),
      name: xml(story.name) ?? (eventType?.startsWith("note") ? undefined : name),
      type: words(xml(story.story_type)),
      url: storyUrl(xml(story.id)),
      state: words(xml(story.current_state)),
    },
    // v3 comments: the note element, else the quoted text of "added comment: "…"".
    comment: quoted(xml(note?.text) ?? (eventType === "note_create" ? name : undefined)),
    body: eventType === "story_create" ? quoted(xml(story.description)) : "",
    changes: [],
  };
}

function labelNames(v: unknown): string[] {
  return Array.isArray(v)
    ? v.map((l) => (typeof l === "string" ? l : text((l as { name?: string })?.name))).filter((n): n is string => !!n)
    : [];
}

/** Story fields a reader cares about; ordering (before/after ids), timestamps and ids are left out. */
export function describeStoryChange(change: V5Change | undefined): Change[] {
  const before = change?.original_values ?? {};
  const after = change?.new_values ?? {};
  const list: Change[] = [];
  const has = (k: string) => Object.prototype.hasOwnProperty.call(after, k);
  if (has("name") && text(before.name) !== text(after.name))
    list.push({ field: "title", from: text(before.name), to: text(after.name) });
  if (has("current_state"))
    list.push({ field: "state", from: words(before.current_state), to: words(after.current_state) });
  if (has("estimate")) list.push({ field: "estimate", from: text(before.estimate), to: text(after.estimate) });
  if (has("story_type")) list.push({ field: "type", from: words(before.story_type), to: words(after.story_type) });
  if (has("labels")) {
    const old = labelNames(before.labels);
    const now = labelNames(after.labels);
    const added = now.filter((l) => !old.includes(l));
    const removed = old.filter((l) => !now.includes(l));
    if (added.length + removed.length > 0) list.push({ field: "labels", added, removed });
  }
  if (has("description")) list.push({ field: "description", long: true });
  return list.filter((c) => c.long || c.added || c.from !== c.to);
}

function fromV5(payload: Payload, context: TransformContext): Record<string, unknown> {
  const resource = (payload.primary_resources ?? [])[0] ?? {};
  const changes = payload.changes ?? [];
  const storyChange = changes.find(
    (c) => c.kind === "story" && (c.change_type === "update" || c.change_type === "create"),
  );
  const commentChange = changes.find((c) => c.kind === "comment" && c.change_type === "create");
  const isUpdate = context.event === "story_update_activity";
  const described = isUpdate ? describeStoryChange(storyChange) : [];
  const state = described.find((c) => c.field === "state");
  return {
    actor: text(payload.performed_by?.name) ?? "Someone",
    verb: text(payload.highlight)?.replace(/:$/, "") ?? "updated",
    story: {
      id: text(resource.id),
      name: text(resource.name),
      type: words(resource.story_type) ?? (resource.kind === "story" ? undefined : words(resource.kind)),
      url: text(resource.url),
      state: state?.to,
    },
    // A state change is the headline ("rejected the feature"), the rest is listed below it.
    stateChanged: state !== undefined,
    changes: described.filter((c) => c !== state),
    comment: quoted(commentChange?.new_values?.text),
    body: context.event === "story_create_activity" ? quoted(storyChange?.new_values?.description) : "",
    skip:
      isUpdate && described.length === 0 && !commentChange
        ? "a story moved within the backlog or another silent edit"
        : "",
  };
}

export default function transform(payload: Payload, context: TransformContext): Record<string, unknown> {
  return payload.activity ? { v3: true, skip: "", ...fromV3(payload.activity) } : fromV5(payload, context);
}
