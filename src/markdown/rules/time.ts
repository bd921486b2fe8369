// The global time syntax `<time:…>`: the reference accepts ISO 8601, Unix seconds and plain dates
// like "31 Dec 2017", "Jun 5th 2017, 10:30PM" or "31 Dec 2017 5:30 am IST", and stores them as a
// <time datetime="<UTC ISO>"> that each reader's client shows in their own zone. Anything else
// renders as a visible error. Input is at most a short line; parsing is a single pass over words.
import type { MarkdownIt } from "./markdownItTypes";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

// Common zone abbreviations → offset from UTC in minutes.
const ZONES: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, ist: 330, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360,
  pst: -480, pdt: -420, cet: 60, cest: 120, eet: 120, eest: 180, bst: 60, wet: 0, west: 60,
  jst: 540, kst: 540, aest: 600, aedt: 660, nzst: 720, nzdt: 780, hkt: 480, sgt: 480,
}; // prettier-ignore

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(am|pm)?$/i;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

function isoSeconds(ms: number): string | null {
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  const year = date.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function parseWords(text: string): string | null {
  let year: number | undefined;
  let month: number | undefined;
  let day: number | undefined;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let meridiem: string | undefined;
  let offset = 0;
  for (const word of text.toLowerCase().split(/[\s,]+/)) {
    if (word === "" || word === "at" || word === "on") continue;
    const monthIndex = MONTHS.indexOf(word.slice(0, 3));
    const dayMatch = /^(\d{1,2})(st|nd|rd|th)?$/.exec(word);
    const time = TIME.exec(word);
    const zone = OFFSET.exec(word);
    if (monthIndex >= 0 && /^[a-z]+\.?$/.test(word) && month === undefined) month = monthIndex;
    else if (/^\d{4}$/.test(word) && year === undefined) year = Number(word);
    else if (dayMatch && day === undefined) day = Number(dayMatch[1]);
    else if (time) {
      [hour, minute, second] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
      meridiem = time[4] ?? meridiem;
    } else if (word === "am" || word === "pm") meridiem = word;
    else if (word in ZONES) offset = ZONES[word];
    else if (zone) offset = (zone[1] === "-" ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3]));
    else return null;
  }
  if (year === undefined || month === undefined || day === undefined || day < 1 || day > 31) return null;
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return isoSeconds(Date.UTC(year, month, day, hour, minute, second) - offset * 60_000);
}

/** The UTC ISO instant a `<time:…>` value names, or null when it names none. */
export function parseTimeValue(value: string): string | null {
  const text = value.trim();
  if (/^-?\d{1,12}(\.\d+)?$/.test(text)) return isoSeconds(Number(text) * 1000);
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) || !text.includes("T") ? text : `${text}Z`;
    return isoSeconds(Date.parse(zoned));
  }
  return parseWords(text);
}

const TIME_SYNTAX = /^<time:([^>\n]{1,100})>/;

export function useTimeSyntax(md: MarkdownIt): void {
  md.inline.ruler.before("autolink", "zulip_time", (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x3c /* < */) return false;
    const match = TIME_SYNTAX.exec(state.src.slice(state.pos, state.pos + 110));
    if (!match) return false;
    if (!silent) state.push("zulip_time", "time", 0).content = match[1];
    state.pos += match[0].length;
    return true;
  });
  md.renderer.rules.zulip_time = (tokens, idx) => {
    const value = tokens[idx].content;
    const instant = parseTimeValue(value);
    const text = md.utils.escapeHtml(value);
    if (!instant) return `<span class="timestamp-error">Invalid time format: ${text}</span>`;
    return `<time datetime="${instant}">${text}</time>`;
  };
}
