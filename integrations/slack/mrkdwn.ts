// Slack "mrkdwn" (a message's `text`) → message Markdown. Slack's text is literal except for a few
// constructs: `*bold*`, `_italic_`, `~strike~`, inline code and ``` blocks, `>` quotes, `<…>`
// entities (links, user, channel and group mentions, broadcasts, dates), and `&amp;`, `&lt;`,
// `&gt;` escapes. Everything else is escaped, so the message shows what Slack showed and nothing
// more (no headings, no Markdown links typed as text, no mentions). The conversion is one
// left-to-right pass per line plus one right-to-left pass per emphasis marker: every `indexOf`
// and every pattern below stops at its own token or at the end of the line, so any input
// converts in linear time (no backtracking over user text).
import { codeBlock, codeSpan, escapeMarkdown, isHttpUrl, markdownLink } from "../../src/webhooks/plugin";

/**
 * Placeholders for the names the template fills in from Slack's API (the transform runs before
 * the lookups' answers are in the view): a mention of the sender, or of the message's channel.
 * Private-use characters, removed from the input first, so no payload text can forge one.
 */
export const USER_TOKEN = "\uE000user\uE001";
export const CHANNEL_TOKEN = "\uE000channel\uE001";

/**
 * Whose names the placeholders stand for (the message's sender and channel ids), and the names
 * Slack's API gave for other people and channels the text mentions, by id (none in a replay).
 */
export interface Known {
  user?: string;
  channel?: string;
  userNames?: ReadonlyMap<string, string>;
  channelNames?: ReadonlyMap<string, string>;
}

export interface Converted {
  /** Finished Markdown (with USER_TOKEN / CHANNEL_TOKEN where a known id was mentioned). */
  markdown: string;
  /** The text starts with a quote, list or code block (it cannot follow "**Name**:" on one line). */
  block: boolean;
}

const ENTITIES: [string, string][] = [
  ["&amp;", "&"],
  ["&lt;", "<"],
  ["&gt;", ">"],
];

/** Slack's three escapes, decoded in one pass (`&amp;lt;` is `&lt;`, not `<`). */
export function decodeEntities(text: string): string {
  return text.replace(/&(?:amp|lt|gt);/g, (m) => ENTITIES.find(([e]) => e === m)![1]);
}

/** An `<!date^1700000000^{date_short}|fallback>` time as the message's `<time:…>` (every reader's own zone). */
function dateMention(seconds: string | undefined, fallback: string): string {
  if (seconds === undefined || !/^\d{1,12}$/.test(seconds)) return escapeMarkdown(fallback);
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return escapeMarkdown(fallback);
  return `<time:${date.toISOString().replace(/\.000Z$/, "Z")}>`;
}

const BROADCASTS = new Set(["here", "channel", "everyone"]);

/**
 * One `<…>` entity. Mentions become plain text (`@name`, `#name`): Slack people and channels are
 * not ours to notify, and broadcasts (`<!here>`, `<!channel>`, `<!everyone>`) must not reach
 * everyone in the Zulip channel.
 */
function renderEntity(inner: string, known: Known): string {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? "" : decodeEntities(inner.slice(bar + 1)).trim();
  const bare = (text: string, sigil: string) => escapeMarkdown(text.startsWith(sigil) ? text.slice(1) : text);
  if (target.startsWith("@")) {
    const id = target.slice(1);
    if (!label && known.user && id === known.user) return `@${USER_TOKEN}`;
    return `@${bare(label || known.userNames?.get(id) || id, "@")}`;
  }
  if (target.startsWith("#")) {
    const id = target.slice(1);
    if (!label && known.channel && id === known.channel) return `#${CHANNEL_TOKEN}`;
    return `#${bare(label || known.channelNames?.get(id) || id, "#")}`;
  }
  if (target.startsWith("!")) {
    const [command, arg] = target.slice(1).split("^", 2);
    if (BROADCASTS.has(command)) return `@${command}`;
    if (command === "subteam") return `@${bare(label || arg || "group", "@")}`;
    if (command === "date") return dateMention(arg, label);
    return escapeMarkdown(label || command);
  }
  const url = decodeEntities(target).trim();
  if (isHttpUrl(url)) return markdownLink(url, label || url);
  // mailto:, tel: and app links are shown as their text; only http(s) URLs become links.
  return escapeMarkdown(label || url.replace(/^mailto:/i, ""));
}

/** A unit of a line: one character of text (a string) or a finished piece of Markdown (code, an entity). */
type Unit = string | { md: string };

const MARKS: Record<string, string> = { "*": "**", _: "*", "~": "~~" };
const isWord = (u: Unit | undefined) => typeof u === "string" && /^[\p{L}\p{N}]$/u.test(u);
const isSpace = (u: Unit | undefined) => typeof u === "string" && /^\s$/u.test(u);

/** A line's characters, with inline code, entities and escapes already turned into single units. */
function unitsOf(line: string, known: Known): Unit[] {
  const units: Unit[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === "`") {
      const close = line.indexOf("`", i + 1);
      // No closing backtick: none follows on the line either, so every later one is literal too.
      if (close > i + 1) {
        units.push({ md: codeSpan(decodeEntities(line.slice(i + 1, close))) });
        i = close + 1;
        continue;
      }
    } else if (c === "<") {
      // An entity ends at the next `>`; a `<` before it means this one is literal (Slack escapes
      // every `<` of the text itself, so that is rare) and the scan resumes there.
      let j = i + 1;
      while (j < line.length && line[j] !== ">" && line[j] !== "<") j++;
      if (line[j] === ">") {
        units.push({ md: renderEntity(line.slice(i + 1, j), known) });
        i = j + 1;
        continue;
      }
    } else if (c === "&") {
      const entity = ENTITIES.find(([e]) => line.startsWith(e, i));
      if (entity) {
        units.push(entity[1]);
        i += entity[0].length;
        continue;
      }
    }
    const code = line.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    units.push(line.slice(i, i + width));
    i += width;
  }
  return units;
}

/**
 * Emphasis over a line's units. A marker opens after a non-word unit and before a non-space, and
 * closes at the first marker of its kind that follows a non-space and precedes a non-word; a
 * doubled marker (`**`) is literal. `closer[m][i]` is that first closer at or after i, computed
 * right to left, so each opening looks its closer up instead of scanning for it. Inside a run
 * the same marker cannot open again (its closer would be the outer one), so runs nest at most
 * three deep.
 */
function renderInline(units: Unit[]): string {
  const n = units.length;
  const canClose = (j: number, m: string) =>
    units[j] === m &&
    j > 0 &&
    !isSpace(units[j - 1]) &&
    units[j - 1] !== m &&
    (j === n - 1 || (!isWord(units[j + 1]) && units[j + 1] !== m));
  const canOpen = (i: number, m: string) =>
    (i === 0 || (!isWord(units[i - 1]) && units[i - 1] !== m)) &&
    i + 1 < n &&
    !isSpace(units[i + 1]) &&
    units[i + 1] !== m;
  const closer: Record<string, Int32Array> = {};
  for (const m of Object.keys(MARKS)) {
    const next = new Int32Array(n + 1).fill(n);
    for (let j = n - 1; j >= 0; j--) next[j] = canClose(j, m) ? j : next[j + 1];
    closer[m] = next;
  }
  const render = (lo: number, hi: number): string => {
    let out = "";
    let text = "";
    for (let i = lo; i < hi;) {
      const u = units[i];
      if (typeof u !== "string") {
        out += escapeMarkdown(text) + u.md;
        text = "";
        i++;
        continue;
      }
      if (u in MARKS && canOpen(i, u)) {
        const j = closer[u][i + 1];
        if (j < hi) {
          out += escapeMarkdown(text) + MARKS[u] + render(i + 1, j) + MARKS[u];
          text = "";
          i = j + 1;
          continue;
        }
      }
      text += u;
      i++;
    }
    return out + escapeMarkdown(text);
  };
  return render(0, n);
}

type Kind = "text" | "quote" | "list" | "code" | "blank";
interface Line {
  kind: Kind;
  md: string;
}

// Anchored and bounded: each runs once per line, from its start.
const ORDERED = /^([ \t]*)(\d{1,9})([.)])[ \t]+/;
// Slack writes its rich-text bullet lists with these characters (one per nesting level).
const BULLET = /^([ \t]*)[•◦▪▫‣⁃][ \t]+/u;
const QUOTE_ALL = /^(?:&gt;|>){3}/;
const QUOTE = /^(?:&gt;|>)/;

/** List nesting from Slack's indentation (four spaces a level), as three spaces a level in Markdown. */
const indent = (space: string) => "   ".repeat(Math.min(3, Math.ceil(space.replace(/\t/g, "    ").length / 4)));

function textLine(raw: string, quoted: boolean, known: Known): Line {
  const prefix = quoted ? "> " : "";
  const ordered = ORDERED.exec(raw);
  if (ordered) {
    const body = renderInline(unitsOf(raw.slice(ordered[0].length), known));
    return { kind: quoted ? "quote" : "list", md: `${prefix}${indent(ordered[1])}${ordered[2]}${ordered[3]} ${body}` };
  }
  const bullet = BULLET.exec(raw);
  if (bullet) {
    const body = renderInline(unitsOf(raw.slice(bullet[0].length), known));
    return { kind: quoted ? "quote" : "list", md: `${prefix}${indent(bullet[1])}* ${body}` };
  }
  // Slack shows indentation as typed; four spaces would make a Markdown code block.
  const body = renderInline(unitsOf(raw.trimStart(), known));
  if (body.trim() === "") return { kind: quoted ? "quote" : "blank", md: quoted ? ">" : "" };
  return { kind: quoted ? "quote" : "text", md: `${prefix}${body}` };
}

/** Converts one Slack text; anything but a string is empty. */
export function convertMrkdwn(input: unknown, known: Known = {}): Converted {
  if (typeof input !== "string") return { markdown: "", block: false };
  const text = input.replace(/\r\n?/g, "\n").replace(/[\uE000\uE001]/g, "");
  const lines: Line[] = [];
  let quoteAll = false;
  const addText = (segment: string, afterCode: boolean, beforeCode: boolean) => {
    const raws = segment.split("\n");
    // The line breaks around a ``` fence are the fence's own, not blank lines.
    if (afterCode && raws[0].trim() === "") raws.shift();
    if (beforeCode && raws.length > 0 && raws[raws.length - 1].trim() === "") raws.pop();
    for (let raw of raws) {
      let quoted = quoteAll;
      if (!quoted && QUOTE_ALL.test(raw)) {
        // Slack's `>>>`: the rest of the message is one quote.
        quoteAll = quoted = true;
        raw = raw.replace(QUOTE_ALL, "");
      } else if (!quoted && QUOTE.test(raw)) {
        quoted = true;
        raw = raw.replace(QUOTE, "");
      }
      lines.push(textLine(quoted && raw.startsWith(" ") ? raw.slice(1) : raw, quoted, known));
    }
  };
  let pos = 0;
  let afterCode = false;
  for (;;) {
    const open = text.indexOf("```", pos);
    const close = open < 0 ? -1 : text.indexOf("```", open + 3);
    // An unclosed ``` is literal text, and so is every later one (none can close after it).
    if (close < 0) {
      addText(text.slice(pos), afterCode, false);
      break;
    }
    addText(text.slice(pos, open), afterCode, true);
    // Slack blocks may sit inside a line (```ls -la```); Markdown needs the fences on their own lines.
    const code = decodeEntities(text.slice(open + 3, close)).replace(/^\n/, "");
    const block = codeBlock(code);
    lines.push({ kind: quoteAll ? "quote" : "code", md: quoteAll ? block.replace(/^/gm, "> ") : block });
    pos = close + 3;
    afterCode = true;
  }
  return { markdown: joinLines(lines), block: ["quote", "list", "code"].includes(firstKind(lines)) };
}

function firstKind(lines: Line[]): Kind {
  return lines.find((l) => l.kind !== "blank")?.kind ?? "blank";
}

/**
 * Lines joined, with a blank line where Markdown would otherwise carry a quote or a list item on
 * into the next line (a lazy continuation): in Slack that next line stands on its own.
 */
function joinLines(lines: Line[]): string {
  const out: string[] = [];
  let previous: Kind = "blank";
  for (const line of lines) {
    if (line.kind === "blank") {
      if (previous !== "blank") out.push("");
      previous = "blank";
      continue;
    }
    if ((previous === "quote" && line.kind !== "quote") || (previous === "list" && line.kind === "text")) out.push("");
    out.push(line.md);
    previous = line.kind;
  }
  if (out[out.length - 1] === "") out.pop();
  return out.join("\n");
}
