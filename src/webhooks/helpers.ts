// The helper library every plugin template can use, registered once in an isolated Handlebars
// environment. Templates are compiled with knownHelpersOnly, so only these names (and the
// Handlebars built-ins if/unless/each/with/lookup/log) exist: a typo fails at start-up.
import Handlebars from "handlebars";
import { escapeLinkText, escapeMarkdown, escapeUrl, limitMarkdown, limitTopic } from "./markdown";

type HelperOptions = Handlebars.HelperOptions;

const str = (v: unknown): string => (v === undefined || v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
/** Positional arguments without the trailing Handlebars options object. */
const positional = (args: unknown[]): unknown[] => args.slice(0, -1);
const isOptions = (v: unknown): v is HelperOptions => typeof v === "object" && v !== null && "hash" in v && "data" in v;
const arg = (v: unknown): unknown => (isOptions(v) ? undefined : v);

export const COMMITS_LIMIT = 20;

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
  const s = str(text).replace(/\s+$/, "");
  const fence = fenceFor(s, "`");
  return `${fence}${str(lang)}\n${s}\n${fence}`;
}

/** Zulip's quote block, as its git integrations use for issue and PR bodies. */
export function quoteBlock(text: unknown): string {
  const s = str(text).replace(/\r\n/g, "\n").replace(/\s+$/, "");
  const fence = fenceFor(s, "~");
  return `${fence} quote\n${s}\n${fence}`;
}

export function toDate(value: unknown): Date | undefined {
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value < 1e12 ? value * 1000 : value);
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
  const units: [number, string][] = [[86400 * 365, "year"], [86400 * 30, "month"], [86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]];
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
    const ref = url ? `[${sha}](${escapeUrl(url)})` : codeSpan(sha);
    return `* ${escapeMarkdown(firstLine(c?.[messageKey]))} (${ref})`;
  });
  const omitted = commits.length - limit;
  if (omitted > 0) rows.push(`[and ${omitted} more commit(s)]`);
  return rows.join("\n");
}

const helpers: Record<string, (...args: any[]) => unknown> = {
  escape: (text) => escapeMarkdown(str(arg(text))),
  link: (url, text) => {
    const label = arg(text) === undefined ? str(url) : str(text);
    return str(url) ? `[${escapeLinkText(label)}](${escapeUrl(str(url))})` : escapeMarkdown(label);
  },
  bold: (text) => `**${escapeMarkdown(str(arg(text)))}**`,
  mention: (name) => `@**${str(name)}**`,
  silentMention: (name) => `@_**${str(name)}**`,
  code: (text) => codeSpan(arg(text)),
  codeBlock: (text, lang) => codeBlock(arg(text), arg(lang)),
  quote: (text) => quoteBlock(arg(text)),
  blockquote: (text) => str(arg(text)).split(/\r?\n/).map((l) => `> ${l}`).join("\n"),
  firstLine: (text) => firstLine(arg(text)),
  truncate: (text, n) => {
    const chars = [...str(text)];
    const max = Number(n);
    return chars.length <= max ? chars.join("") : chars.slice(0, Math.max(0, max - 3)).join("") + "...";
  },
  limitMessage: (text) => limitMarkdown(str(arg(text))),
  limitTopic: (text) => limitTopic(str(arg(text))),
  commitList: (commits, options: HelperOptions) => commitList(commits, options.hash),
  take: (list, n) => (Array.isArray(list) ? list.slice(0, Number(n)) : []),
  moreThan: (list, n) => (Array.isArray(list) ? Math.max(0, list.length - Number(n)) : 0),
  length: (list) => (Array.isArray(list) ? list.length : typeof list === "string" ? [...list].length : 0),
  sentenceList: (list, key) => sentenceList(list, arg(key)),
  join: (list, sep) => (Array.isArray(list) ? list.map(str).join(arg(sep) === undefined ? ", " : str(sep)) : str(list)),
  branch: (ref) => branchName(arg(ref)),
  isTag: (ref) => str(ref).startsWith("refs/tags/"),
  shortSha: (sha, length) => shortSha(arg(sha), arg(length) ?? 11),
  plural: (count, singular, plural) => pluralize(count, singular, arg(plural)),
  pluralCount: (count, singular, plural) => `${Number(count) || 0} ${pluralize(count, singular, arg(plural))}`,
  time: (value) => {
    const d = toDate(arg(value));
    return d ? `<time:${d.toISOString().replace(/\.000Z$/, "Z")}>` : str(arg(value));
  },
  datetime: (value) => {
    const d = toDate(arg(value));
    return d ? d.toISOString().replace("T", " ").replace(/(:\d\d)(\.\d+)?Z$/, "$1 UTC") : str(arg(value));
  },
  relativeTime: (value, now) => relativeTime(arg(value), arg(now) ?? Date.now()),
  json: (value) => JSON.stringify(arg(value) ?? null, null, 2),
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  gt: (a, b) => Number(a) > Number(b),
  lt: (a, b) => Number(a) < Number(b),
  and: (...args) => positional(args).every(Boolean),
  or: (...args) => positional(args).some(Boolean),
  not: (a) => !a,
  default: (value, fallback) => (value === undefined || value === null || value === "" ? fallback : value),
  lower: (text) => str(arg(text)).toLowerCase(),
  upper: (text) => str(arg(text)).toUpperCase(),
  capitalize: (text) => str(arg(text)).replace(/^./, (c) => c.toUpperCase()),
  replace: (text, find, replacement) => str(text).split(str(find)).join(str(arg(replacement))),
  concat: (...args) => positional(args).map(str).join(""),
  add: (a, b) => Number(a) + Number(b),
  sub: (a, b) => Number(a) - Number(b),
};

export const HELPER_NAMES = Object.keys(helpers).sort();

export type TemplateFn = (view: unknown, data: Record<string, unknown>, partials: Record<string, Handlebars.TemplateDelegate>) => string;

const engine = Handlebars.create();
for (const [name, fn] of Object.entries(helpers)) engine.registerHelper(name, fn);

const COMPILE_OPTIONS: CompileOptions = {
  noEscape: true,
  strict: false,
  knownHelpersOnly: true,
  knownHelpers: Object.fromEntries(HELPER_NAMES.map((n) => [n, true])),
};

/** Compiles now (so syntax errors and unknown helpers throw at start-up), never again. */
export function compileTemplate(source: string): TemplateFn {
  const spec = engine.precompile(source, COMPILE_OPTIONS);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const template = engine.template(new Function(`return ${spec}`)());
  return (view, data, partials) => template(view, { data, partials, allowProtoPropertiesByDefault: false });
}

/** Partials are compiled the same way and handed to each render (they are per plugin). */
export function compilePartial(source: string): Handlebars.TemplateDelegate {
  const spec = engine.precompile(source, COMPILE_OPTIONS);
  return engine.template(new Function(`return ${spec}`)());
}

type CompileOptions = Parameters<typeof Handlebars.precompile>[1];
