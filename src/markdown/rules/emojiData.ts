// Emoji names and codes: the installed emoji-datasource package, with the reference server's own
// names on top where they differ (its `:smile:` is 🙂, not 😄). Built once, on first use.
import { createRequire } from "node:module";

interface DatasourceEmoji {
  unified: string;
  non_qualified: string | null;
  short_names: string[];
  category: string;
}

/** A Unicode emoji: `code` is the dash-joined lowercase code points used in the `emoji-<code>` class. */
export interface UnicodeEmoji {
  name: string;
  code: string;
}

// The reference's names for emoji that emoji-datasource names differently (name → code points).
// Its canonical name for the emoji; datasource names stay usable as aliases.
const REFERENCE_NAMES: Record<string, string> = {
  smile: "1f642",
  big_smile: "1f604",
  upside_down: "1f643",
  frown: "1f641",
  cat: "1f408",
  dog: "1f415",
  rabbit: "1f407",
  division: "2797",
  up: "2b06",
  down: "2b07",
  robot: "1f916",
  kiwi: "1f95d",
  gold: "1f947",
  silver: "1f948",
  bronze: "1f949",
  poop: "1f4a9",
  thumbs_up: "1f44d",
  thumbs_down: "1f44e",
  working_on_it: "1f6e0",
  octopus: "1f419",
};

// Emoticons the reference translates when the user enables it (`translate_emoticons`).
export const EMOTICONS: Record<string, string> = {
  ":)": "smile",
  "(:": "upside_down",
  ":(": "frown",
  "<3": "heart",
  ":|": "expressionless",
  ":/": "confused",
  ";)": "wink",
  ":D": "grinning",
};

interface EmojiTables {
  byName: Map<string, UnicodeEmoji>;
  byCode: Map<string, UnicodeEmoji>;
}

let tables: EmojiTables | undefined;

const codeOf = (unified: string) => unified.toLowerCase().replace(/-fe0f/g, "");

function build(): EmojiTables {
  const load = createRequire(__filename);
  const data = load("emoji-datasource/emoji.json") as DatasourceEmoji[];
  const canonical = new Map<string, string>(); // code → the reference's name
  for (const [name, code] of Object.entries(REFERENCE_NAMES)) if (!canonical.has(code)) canonical.set(code, name);
  const byName = new Map<string, UnicodeEmoji>();
  const byCode = new Map<string, UnicodeEmoji>();
  for (const entry of data) {
    // ZWJ sequences and bare skin tones are not offered by the reference (yet).
    if (entry.unified.includes("200D") || entry.category === "Component") continue;
    const code = codeOf(entry.non_qualified ?? entry.unified);
    const names = entry.short_names.filter((n) => !(n in REFERENCE_NAMES) || REFERENCE_NAMES[n] === code);
    const name = canonical.get(code) ?? names[0];
    if (!name) continue;
    const emoji = { name, code };
    byCode.set(code, emoji);
    for (const alias of names) if (!byName.has(alias)) byName.set(alias, emoji);
  }
  for (const [name, code] of Object.entries(REFERENCE_NAMES)) {
    const emoji = byCode.get(code);
    if (emoji) byName.set(name, emoji);
  }
  return { byName, byCode };
}

function emojiTables(): EmojiTables {
  tables ??= build();
  return tables;
}

export function unicodeEmojiByName(name: string): UnicodeEmoji | undefined {
  return emojiTables().byName.get(name);
}

/** The emoji with this code (dash-joined code points, any case; variation selectors ignored). */
export function unicodeEmojiByCode(code: string): UnicodeEmoji | undefined {
  return emojiTables().byCode.get(codeOf(code));
}

/** The emoji for a run of Unicode text (variation selectors ignored), if it is exactly one known emoji. */
export function unicodeEmojiByText(text: string): UnicodeEmoji | undefined {
  const code = [...text]
    .map((ch) => ch.codePointAt(0)!.toString(16))
    .filter((cp) => cp !== "fe0f")
    .join("-");
  return emojiTables().byCode.get(code);
}
