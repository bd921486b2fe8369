// The helper library every plugin template can use, registered once in an isolated Handlebars
// environment. Templates are compiled with knownHelpersOnly, so only these names (and the
// Handlebars built-ins if/unless/each/with/lookup/log) exist: a typo fails at start-up.
//
// Auto-escaping: message templates are compiled so that every `{{value}}` goes through
// escapeMarkdown (it cannot create links, mentions, emphasis, headings…). Helpers that build
// Markdown (link, bold, code, quote, commitList, time…) return a SafeString, which is inserted as
// it is; helpers that compute text (lower, concat, firstLine…) return plain strings, which are
// escaped like any value. `{{{value}}}` inserts raw text. Topic and ignoreWhen/directWhen
// templates are not Markdown and are compiled without escaping.
import Handlebars from "handlebars";
import {
  escapeLinkText,
  escapeMarkdown,
  escapeUrl,
  isHttpUrl,
  limitMarkdown,
  limitTopic,
  neutraliseMarkdown,
} from "./safeMarkdown";
import { joinLines } from "../text";

type HelperOptions = Handlebars.HelperOptions;
// Handlebars hands helpers untyped values (payload data, literals, an options object); each
// helper checks what it gets, so the one `any` is here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type HelperFn = (...args: any[]) => unknown;
type MarkdownHelperFn = (...args: Parameters<HelperFn>) => string;
type AST = hbs.AST.Program;

const { SafeString } = Handlebars;
export type SafeMarkdown = Handlebars.SafeString;

/** True for a helper's already-safe Markdown. */
export const isSafe = (v: unknown): v is SafeMarkdown => v instanceof SafeString;
/** Marks text as Markdown that must not be escaped again (empty text stays a falsy ""). */
export const safeMarkdown = (text: string): SafeMarkdown | "" => (text === "" ? "" : new SafeString(text));

const str = (v: unknown): string =>
  v === undefined || v === null ? "" : isSafe(v) ? v.toString() : typeof v === "object" ? JSON.stringify(v) : String(v);
/** A value as safe Markdown: SafeStrings as they are, anything else escaped. */
const asMarkdown = (v: unknown): string => (isSafe(v) ? v.toString() : escapeMarkdown(str(v)));
/** SafeStrings compare by their text. */
const plain = (v: unknown): unknown => (isSafe(v) ? v.toString() : v);
/** Positional arguments without the trailing Handlebars options object. */
const positional = (args: unknown[]): unknown[] => args.slice(0, -1);
const isOptions = (v: unknown): v is HelperOptions => typeof v === "object" && v !== null && "hash" in v && "data" in v;
const arg = (v: unknown): unknown => (isOptions(v) ? undefined : v);

export const COMMITS_LIMIT = 20;

/** A trimmed non-empty string, or undefined for anything else (blank text, numbers, objects). */
export const nonEmptyText = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/** nonEmptyText, or a number in decimal (ids and counts that services send either way). */
export const scalarText = (v: unknown): string | undefined =>
  nonEmptyText(v) ?? (typeof v === "number" ? String(v) : undefined);

/** The first of the values that is non-empty text (trimmed), or undefined. */
export function firstText(...values: unknown[]): string | undefined {
  for (const v of values) {
    const text = nonEmptyText(isSafe(v) ? v.toString() : v);
    if (text !== undefined) return text;
  }
  return undefined;
}

// Named colours senders use instead of hex: Slack/Mattermost attachments, Adaptive Card styles.
const NAMED_COLOURS: Record<string, string> = {
  good: "🟢",
  success: "🟢",
  warning: "🟡",
  danger: "🔴",
  attention: "🔴",
  error: "🔴",
  accent: "🔵",
  info: "🔵",
};

/**
 * A sender's colour (Discord's integer, `#RRGGBB`, `RGB`, or a name such as Slack's `danger`) as
 * a coloured-circle emoji, the nearest of red, orange, yellow, green, blue, purple, brown, black
 * and white, so the status a colour stands for survives as text; "" for anything else.
 */
export function colorMarker(value: unknown): string {
  let rgb: number | undefined;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffff) rgb = value;
  else if (typeof value === "string") {
    const text = value.trim().toLowerCase();
    if (NAMED_COLOURS[text]) return NAMED_COLOURS[text];
    const hex = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/.exec(text)?.[1];
    if (hex) rgb = parseInt(hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex, 16);
    else if (/^\d{1,8}$/.test(text) && Number(text) <= 0xffffff) rgb = Number(text);
  }
  if (rgb === undefined) return "";
  const [r, g, b] = [(rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255].map((c) => c / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (chroma < 0.15) return lightness < 0.3 ? "⚫" : "⚪";
  const hue =
    max === r
      ? (60 * ((g - b) / chroma) + 360) % 360
      : max === g
        ? 60 * ((b - r) / chroma) + 120
        : 60 * ((r - g) / chroma) + 240;
  if (hue < 15 || hue >= 330) return "🔴";
  if (hue < 45) return lightness < 0.35 ? "🟤" : "🟠";
  if (hue < 70) return "🟡";
  if (hue < 170) return "🟢";
  if (hue < 260) return "🔵";
  return "🟣";
}

/** One field change, as transforms describe them for `changeList`. */
export interface FieldChange {
  field: string;
  from?: string;
  to?: string;
  /** A long text (a description) changed: said as "updated", without the texts. */
  long?: boolean;
  added?: string[];
  removed?: string[];
}

/**
 * `* **field:** old → new` per change (`(none)` for a missing side), `updated` for a long text,
 * `added `a`, `b`; removed `c`` for list fields.
 */
export function changeList(changes: unknown): string {
  if (!Array.isArray(changes)) return "";
  const codes = (list: unknown) => (Array.isArray(list) ? list.map((x) => codeSpan(x)).join(", ") : "");
  return changes
    .map((c: Partial<FieldChange> | null) => {
      const change = c ?? {};
      const count = (list: unknown) => (Array.isArray(list) ? list.length : 0);
      let what: string;
      if (change.long) what = "updated";
      else if (change.added || change.removed)
        what = [
          count(change.added) ? `added ${codes(change.added)}` : "",
          count(change.removed) ? `removed ${codes(change.removed)}` : "",
        ]
          .filter(Boolean)
          .join("; ");
      else what = `${escapeMarkdown(str(change.from) || "(none)")} → ${escapeMarkdown(str(change.to) || "(none)")}`;
      return `* **${escapeMarkdown(`${str(change.field)}:`)}** ${what}`;
    })
    .join("\n");
}

/** Whole seconds between two times, as compactDuration words; undefined when either is not a time. */
export function durationBetween(from: unknown, to: unknown): string | undefined {
  const [start, end] = [toDate(from), toDate(to)];
  return start && end ? compactDuration((end.getTime() - start.getTime()) / 1000) : undefined;
}

/** 45 → "45 s", 125 → "2 min 5 s", 3780 → "1 h 3 min" (whole seconds); undefined for a negative or unknown span. */
export function compactDuration(seconds: number): string | undefined {
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
}

/** A manifest's lookup tables: table name → row key → field → text (`"*"`: the row for any other key). */
export type Tables = Record<string, Record<string, Record<string, string>>>;

/** `{key}` in a row's texts stands for the key looked up (for the `"*"` row: "ended as {key}"). */
export function tableRow(tables: Tables | undefined, name: string, key: unknown): Record<string, string> | undefined {
  const rows = tables?.[name];
  if (!rows) return undefined;
  const keyText = str(isSafe(key) ? key.toString() : key);
  const row = Object.hasOwn(rows, keyText) ? rows[keyText] : Object.hasOwn(rows, "*") ? rows["*"] : undefined;
  if (!row) return undefined;
  return Object.fromEntries(Object.entries(row).map(([field, text]) => [field, text.split("{key}").join(keyText)]));
}

export function firstLine(text: unknown): string {
  return str(text).split(/\r?\n/, 1)[0].trim();
}

export function shortSha(sha: unknown, length: unknown = 11): string {
  return str(sha).slice(0, typeof length === "number" ? length : 11);
}

/** refs/heads/main → main, refs/tags/v1 → v1, anything else unchanged. */
export function branchName(ref: unknown): string {
  return str(ref).replace(/^refs\/(heads|tags)\//, "");
}

/** A fence longer than any run of the fence character inside the text. */
function fenceFor(text: string, char: "`" | "~", min = 3): string {
  const longest = Math.max(0, ...[...text.matchAll(char === "`" ? /`+/g : /~+/g)].map((m) => m[0].length));
  return char.repeat(Math.max(min, longest + 1));
}

export function codeSpan(text: unknown): string {
  const s = str(text).replace(/\n/g, " ");
  if (s === "") return "";
  const ticks = fenceFor(s, "`", 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${ticks}${pad}${s}${pad}${ticks}`;
}

export function codeBlock(text: unknown, lang: unknown = ""): string {
  const s = str(text).trimEnd();
  const fence = fenceFor(s, "`");
  return `${fence}${str(lang)}\n${s}\n${fence}`;
}

/** Zulip's quote block, as its git integrations use for issue and PR bodies. */
export function quoteBlock(text: unknown): string {
  const s = str(text).replace(/\r\n/g, "\n").trimEnd();
  const fence = fenceFor(s, "~");
  return `${fence} quote\n${s}\n${fence}`;
}

export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value === "number") {
    const d = new Date(value < 1e12 ? value * 1000 : value);
    return Number.isNaN(d.getTime()) ? undefined : d; // beyond ±8.64e15 ms: no date at all
  }
  if (typeof value === "string" && value.trim() !== "") {
    const d = /^\d+$/.test(value) ? toDate(Number(value)) : new Date(value);
    return d && !Number.isNaN(d.getTime()) ? d : undefined;
  }
  return undefined;
}

export function relativeTime(value: unknown, now: unknown = Date.now()): string {
  const date = toDate(value);
  const ref = toDate(now) ?? new Date();
  if (!date) return str(value);
  const seconds = Math.round((ref.getTime() - date.getTime()) / 1000);
  const abs = Math.abs(seconds);
  const units: [number, string][] = [
    [86400 * 365, "year"],
    [86400 * 30, "month"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
    [1, "second"],
  ];
  if (abs < 10) return "just now";
  const [size, unit] = units.find(([s]) => abs >= s)!;
  const n = Math.floor(abs / size);
  const text = `${n} ${unit}${n === 1 ? "" : "s"}`;
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

export function pluralize(count: unknown, singular: unknown, plural?: unknown): string {
  const word = str(singular);
  return Number(count) === 1 ? word : plural !== undefined ? str(plural) : `${word}s`;
}

/** ["A", "B", "C"] → "A, B and C". */
export function sentenceList(items: unknown, key?: unknown): string {
  if (!Array.isArray(items)) return str(items);
  const names = items.map((x) => str(key ? (x as Record<string, unknown>)?.[str(key)] : x)).filter((x) => x !== "");
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** `* first line ([sha11](url))` per commit, at most `limit`, then `[and N more commit(s)]`. */
export function commitList(commits: unknown, hash: Record<string, unknown> = {}): string {
  if (!Array.isArray(commits)) return "";
  const limit = typeof hash.limit === "number" ? hash.limit : COMMITS_LIMIT;
  const [shaKey, messageKey, urlKey] = [str(hash.sha ?? "id"), str(hash.message ?? "message"), str(hash.url ?? "url")];
  const rows = commits.slice(0, limit).map((c: Record<string, unknown>) => {
    const sha = shortSha(c?.[shaKey]);
    const url = str(c?.[urlKey]);
    const ref = isHttpUrl(url) ? `[${escapeLinkText(sha)}](${escapeUrl(url.trim())})` : codeSpan(sha);
    return `* ${escapeMarkdown(firstLine(c?.[messageKey]))} (${ref})`;
  });
  const omitted = commits.length - limit;
  if (omitted > 0) rows.push(`[and ${omitted} more commit(s)]`);
  return rows.join("\n");
}

/** `[text](url)` for an http(s) URL; otherwise the text alone, escaped. */
export function markdownLink(url: unknown, text?: unknown): string {
  const target = str(url).trim();
  const label = str(text) === "" ? target : text;
  if (!isHttpUrl(target)) return asMarkdown(label);
  const shown = isSafe(label) ? joinLines(label.toString()) : escapeLinkText(str(label));
  return `[${shown}](${escapeUrl(target)})`;
}

const textHelpers: Record<string, HelperFn> = {
  firstText: (...args) => firstText(...positional(args)),
  /** Text trimmed, or a number in decimal (ids and percentages services send either way); nothing otherwise. */
  scalarText: (value) => scalarText(plain(arg(value))),
  /** One URL path segment or query value built from payload text (`encodeURIComponent`). */
  urlEncode: (value) => encodeURIComponent(str(plain(arg(value)))),
  /** `{{table "result" status "emoji"}}`: a field of the manifest's table row; without a field, the row. */
  table: (...args) => {
    const options = args[args.length - 1] as HelperOptions;
    const [name, key, field] = positional(args);
    const row = tableRow(options.data?.tables as Tables | undefined, str(name), key);
    return field === undefined ? row : row?.[str(field)];
  },
  contains: (text, part) => str(plain(text)).includes(str(plain(part))),
  startsWith: (text, prefix) => str(plain(text)).startsWith(str(plain(prefix))),
  /** The text without one leading `prefix` (`{{trimPrefix file "[PROJECT_ROOT]/"}}`). */
  trimPrefix: (text, prefix) => {
    const [s, start] = [str(plain(text)), str(plain(arg(prefix)))];
    return start !== "" && s.startsWith(start) ? s.slice(start.length) : s;
  },
  /** The text without one trailing `suffix` (`{{trimSuffix admin_url "/"}}`). */
  trimSuffix: (text, suffix) => {
    const [s, end] = [str(plain(text)), str(plain(arg(suffix)))];
    return end !== "" && s.endsWith(end) ? s.slice(0, -end.length) : s;
  },
  /** The URL path segment after the last one named `name` (`{{segmentAfter url "builds"}}` → `33`); nothing when absent. */
  segmentAfter: (text, name) => {
    const segments = str(plain(text)).split(/[/#?]/);
    const at = segments.lastIndexOf(str(plain(arg(name))));
    return at >= 0 && at + 1 < segments.length && segments[at + 1] !== "" ? segments[at + 1] : undefined;
  },
  compactDuration: (seconds) => (typeof arg(seconds) === "number" ? compactDuration(seconds) : undefined),
  durationBetween: (from, to) => durationBetween(arg(from), arg(to)),
  firstLine: (text) => firstLine(arg(text)),
  colorMarker: (value) => colorMarker(arg(value)),
  truncate: (text, n) => {
    const chars = [...str(text)];
    const max = Number(n);
    return chars.length <= max ? chars.join("") : chars.slice(0, Math.max(0, max - 3)).join("") + "...";
  },
  limitTopic: (text) => limitTopic(str(arg(text))),
  take: (list, n) => (Array.isArray(list) ? list.slice(0, Number(n)) : []),
  moreThan: (list, n) => (Array.isArray(list) ? Math.max(0, list.length - Number(n)) : 0),
  length: (list) => (Array.isArray(list) ? list.length : typeof list === "string" ? [...list].length : 0),
  sentenceList: (list, key) => sentenceList(list, arg(key)),
  join: (list, sep) => (Array.isArray(list) ? list.map(str).join(arg(sep) === undefined ? ", " : str(sep)) : str(list)),
  /** A list sent either as text (`"web1, web2"`, split at `sep`) or as an array: the parts trimmed, blanks dropped. */
  split: (value, sep) => {
    const parts = Array.isArray(value) ? value.map(str) : str(plain(value)).split(str(plain(arg(sep))) || ",");
    return parts.map((part) => part.trim()).filter((part) => part !== "");
  },
  branch: (ref) => branchName(arg(ref)),
  isTag: (ref) => str(ref).startsWith("refs/tags/"),
  shortSha: (sha, length) => shortSha(arg(sha), arg(length) ?? 11),
  plural: (count, singular, plural) => pluralize(count, singular, arg(plural)),
  pluralCount: (count, singular, plural) => `${Number(count) || 0} ${pluralize(count, singular, arg(plural))}`,
  datetime: (value) => {
    const d = toDate(arg(value));
    return d
      ? d
          .toISOString()
          .replace("T", " ")
          .replace(/(:\d\d)(\.\d+)?Z$/, "$1 UTC")
      : str(arg(value));
  },
  relativeTime: (value, now) => relativeTime(arg(value), arg(now) ?? Date.now()),
  json: (value) => JSON.stringify(arg(value) ?? null, null, 2),
  eq: (a, b) => plain(a) === plain(b),
  ne: (a, b) => plain(a) !== plain(b),
  gt: (a, b) => Number(plain(a)) > Number(plain(b)),
  lt: (a, b) => Number(plain(a)) < Number(plain(b)),
  and: (...args) => positional(args).every(Boolean),
  or: (...args) => positional(args).some(Boolean),
  not: (a) => !a,
  default: (value, fallback) => (str(value) === "" ? fallback : value),
  lower: (text) => str(arg(text)).toLowerCase(),
  upper: (text) => str(arg(text)).toUpperCase(),
  capitalize: (text) => str(arg(text)).replace(/^./, (c) => c.toUpperCase()),
  replace: (text, find, replacement) =>
    str(text)
      .split(str(find))
      .join(str(arg(replacement))),
  add: (a, b) => Number(plain(a)) + Number(plain(b)),
  sub: (a, b) => Number(plain(a)) - Number(plain(b)),
  /** a ÷ b (milliseconds into seconds); nothing when either is not a number or b is 0. */
  div: (a, b) => {
    const [x, y] = [plain(a), plain(b)].map((v) => (v === null || v === undefined || v === "" ? NaN : Number(v)));
    return Number.isFinite(x) && Number.isFinite(y) && y !== 0 ? x / y : undefined;
  },
};

/** Helpers whose result is Markdown: returned as SafeString, never escaped again. */
const markdownHelpers: Record<string, MarkdownHelperFn> = {
  escape: (text) => asMarkdown(arg(text)),
  link: (url, text) => markdownLink(arg(url), arg(text)),
  bold: (text) => {
    const inner = asMarkdown(arg(text));
    return inner === "" ? "" : `**${inner}**`;
  },
  mention: (name) => `@**${str(arg(name)).replace(/[*\n]/g, "")}**`,
  silentMention: (name) => `@_**${str(arg(name)).replace(/[*\n]/g, "")}**`,
  code: (text) => codeSpan(arg(text)),
  codeBlock: (text, lang) => codeBlock(arg(text), str(arg(lang)).replace(/[^\w+.-]/g, "")),
  quote: (text) => (str(arg(text)).trim() === "" ? "" : quoteBlock(neutraliseMarkdown(str(arg(text))))),
  markdown: (text) => neutraliseMarkdown(str(arg(text))),
  blockquote: (text) =>
    str(arg(text)).trim() === ""
      ? ""
      : neutraliseMarkdown(str(arg(text)))
          .split(/\r?\n/)
          .map((l) => `> ${l}`)
          .join("\n"),
  limitMessage: (text) => limitMarkdown(asMarkdown(arg(text))),
  commitList: (commits, options: HelperOptions) => commitList(commits, options.hash),
  changeList: (changes) => changeList(arg(changes)),
  time: (value) => {
    const d = toDate(arg(value));
    return d ? `<time:${d.toISOString().replace(/\.000Z$/, "Z")}>` : asMarkdown(arg(value));
  },
  /** Joins its arguments; plain ones are escaped when any argument is already Markdown. */
  concat: (...args) => positional(args).map(asMarkdown).join(""),
};

/** The internal helper every `{{value}}` of a message template is wrapped in. */
const AUTO_ESCAPE = "__markdownValue";

const helpers: Record<string, HelperFn> = {
  ...textHelpers,
  ...Object.fromEntries(
    Object.entries(markdownHelpers).map(([name, fn]) => [
      name,
      (...args: Parameters<HelperFn>) => safeMarkdown(fn(...args)),
    ]),
  ),
  // concat of plain values stays plain text (it is escaped when output, or used as link text).
  concat: (...args: Parameters<HelperFn>) =>
    positional(args).some(isSafe) ? safeMarkdown(markdownHelpers.concat(...args)) : positional(args).map(str).join(""),
  [AUTO_ESCAPE]: (value: unknown) => asMarkdown(arg(value)),
};

export const HELPER_NAMES = Object.keys(helpers)
  .filter((n) => n !== AUTO_ESCAPE)
  .sort();

export type TemplateFn = (
  view: unknown,
  data: Record<string, unknown>,
  partials: Record<string, Handlebars.TemplateDelegate>,
) => string;

const engine = Handlebars.create();
for (const [name, fn] of Object.entries(helpers)) engine.registerHelper(name, fn);

const COMPILE_OPTIONS: CompileOptions = {
  noEscape: true,
  strict: false,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(Object.keys(helpers).map((n) => [n, true])),
};

const helperPath = (name: string, loc: hbs.AST.SourceLocation): hbs.AST.PathExpression =>
  ({ type: "PathExpression", data: false, depth: 0, parts: [name], original: name, loc }) as hbs.AST.PathExpression;

/** `{{x}}` → `{{__markdownValue x}}`, `{{helper a b}}` → `{{__markdownValue (helper a b)}}`; `{{{x}}}` untouched. */
function wrapMustache(node: hbs.AST.MustacheStatement): void {
  if (!node.escaped) return;
  const path = node.path as hbs.AST.PathExpression;
  const callsHelper =
    node.params.length > 0 || node.hash !== undefined || (path.type === "PathExpression" && path.original in helpers);
  const inner: hbs.AST.Expression = callsHelper
    ? ({
        type: "SubExpression",
        path: node.path,
        params: node.params,
        hash: node.hash,
        loc: node.loc,
      } as hbs.AST.SubExpression)
    : node.path;
  node.path = helperPath(AUTO_ESCAPE, node.loc);
  node.params = [inner];
  node.hash = undefined as unknown as hbs.AST.Hash;
}

type BlockNode = { type: string; program?: hbs.AST.Program; inverse?: hbs.AST.Program };

function autoEscape(node: hbs.AST.Node | undefined): void {
  if (!node) return;
  if (node.type === "Program") (node as hbs.AST.Program).body.forEach(autoEscape);
  else if (node.type === "MustacheStatement") wrapMustache(node as hbs.AST.MustacheStatement);
  else if (["BlockStatement", "DecoratorBlock", "PartialBlockStatement"].includes(node.type)) {
    autoEscape((node as BlockNode).program);
    autoEscape((node as BlockNode).inverse);
  }
}

/** Parses a template; for Markdown (message) templates every `{{value}}` is escaped automatically. */
function parse(source: string, markdown: boolean): AST {
  const ast = engine.parse(source);
  if (markdown) autoEscape(ast);
  return ast;
}

export interface CompileSettings {
  /** false for topics, ignoreWhen and directWhen: plain text, not Markdown, so nothing is escaped. */
  markdown?: boolean;
}

/** The library's helper names a template (or partial) refers to, from its parsed form. */
function helpersIn(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const child of node) helpersIn(child, found);
  else if (node !== null && typeof node === "object") {
    const { type, original } = node as { type?: unknown; original?: unknown };
    if (type === "PathExpression" && typeof original === "string" && Object.hasOwn(helpers, original))
      found.add(original);
    for (const [key, value] of Object.entries(node)) if (key !== "loc") helpersIn(value, found);
  }
  return found;
}

// Handlebars wraps every helper of its environment on every render (to hand each its property
// lookup), so a render costs time in proportion to the number of helpers registered. Each
// template therefore runs in an environment holding only the helpers it and its partials (which
// run with their caller's helpers) can call; environments are shared between equal sets.
const environments = new Map<string, typeof Handlebars>();

function environmentWith(names: ReadonlySet<string>): typeof Handlebars {
  const key = [...names].sort().join(",");
  let env = environments.get(key);
  if (!env) {
    env = Handlebars.create();
    for (const name of names) env.registerHelper(name, helpers[name]);
    environments.set(key, env);
  }
  return env;
}

/** The helpers each compiled partial calls (partials not compiled here are not in it). */
const partialHelpers = new WeakMap<Handlebars.TemplateDelegate, Set<string>>();

/** Everything the partials handed to a render can call; undefined when one of them is unknown. */
function helpersOfPartials(partials: Record<string, Handlebars.TemplateDelegate>): Set<string> | undefined {
  const names = new Set<string>();
  for (const partial of Object.values(partials)) {
    const used = partialHelpers.get(partial);
    if (!used) return undefined;
    for (const name of used) names.add(name);
  }
  return names;
}

/** Precompiled source (a string at run time, whatever the type says) → a template of that environment. */
const instantiate = (spec: TemplateSpecification, env: typeof Handlebars) =>
  env.template(new Function(`return ${spec}`)());

/** Compiles now (so syntax errors and unknown helpers throw at start-up), never again. */
/**
 * compileTemplate with memory: each distinct source (and mode) is compiled once, since a compiled
 * template holds no per-organization state. Emptied when it holds `max` templates.
 */
export function templateCache(max: number): (source: string, markdown: boolean) => TemplateFn {
  const compiled = new Map<string, TemplateFn>();
  return (source, markdown) => {
    const key = `${markdown ? "m" : "t"}:${source}`;
    let fn = compiled.get(key);
    if (!fn) {
      fn = compileTemplate(source, { markdown });
      if (compiled.size >= max) compiled.clear();
      compiled.set(key, fn);
    }
    return fn;
  };
}

export function compileTemplate(source: string, settings: CompileSettings = {}): TemplateFn {
  const markdown = settings.markdown !== false;
  const ast = parse(source, markdown);
  const spec = checkedSpec(source, markdown, ast);
  const own = helpersIn(ast);
  const runnable = (partials: Record<string, Handlebars.TemplateDelegate>) => {
    const reachable = helpersOfPartials(partials);
    return instantiate(spec(), reachable ? environmentWith(new Set([...own, ...reachable])) : engine);
  };
  // One runnable template per set of partials it is rendered with (a plugin's are always the same
  // object); renders without partials (a fresh `{}` each time: checks, tests) share one.
  const byPartials = new WeakMap<object, Handlebars.TemplateDelegate>();
  let alone: Handlebars.TemplateDelegate | undefined;
  return (view, data, partials) => {
    let template = byPartials.get(partials);
    if (!template) {
      template = Object.keys(partials).length === 0 ? (alone ??= runnable(partials)) : runnable(partials);
      byPartials.set(partials, template);
    }
    return template(view, { data, partials, allowProtoPropertiesByDefault: false });
  };
}

/** Partials are compiled the same way (always Markdown) and handed to each render (they are per plugin). */
export function compilePartial(source: string): Handlebars.TemplateDelegate {
  const ast = parse(source, true);
  const spec = checkedSpec(source, true, ast);
  let template: Handlebars.TemplateDelegate | undefined;
  // Handlebars calls a partial as a plain function: its code is written on its first call.
  const partial: Handlebars.TemplateDelegate = (context, options) =>
    (template ??= instantiate(spec(), engine))(context, options);
  partialHelpers.set(partial, helpersIn(ast));
  return partial;
}

/** Handlebars' first compiler, which its types leave out (precompile runs it, then the JavaScript one). */
interface WithCompiler {
  Compiler: new () => { compile(ast: AST, options: CompileOptions): object };
}

/**
 * A template's precompiled code, written on first use. `engine.precompile` runs two compilers: the
 * first (tree → opcodes) is where Handlebars refuses what an author can get wrong (a helper that
 * does not exist, a partial given two arguments), so it runs now and a mistake still stops
 * start-up; the second writes the JavaScript, about three quarters of the time, and refuses nothing
 * a template can hold. Only the source is kept until then (it is parsed again, as it was the first
 * time), so a process or render thread pays for the code, and holds it, only for the templates it
 * renders (docs/benchmarks.md#start-up-and-memory).
 */
function checkedSpec(source: string, markdown: boolean, ast: AST): () => TemplateSpecification {
  // What precompile does with its options (`data` on), on a copy: the first compiler writes into them.
  const options: CompileOptions = { ...COMPILE_OPTIONS, data: true };
  new (engine as typeof engine & WithCompiler).Compiler().compile(engine.parse(ast as never, options), options);
  let spec: TemplateSpecification | undefined;
  return () => (spec ??= engine.precompile(parse(source, markdown), COMPILE_OPTIONS));
}

type CompileOptions = Parameters<typeof Handlebars.precompile>[1];
type TemplateSpecification = ReturnType<typeof Handlebars.precompile>;
