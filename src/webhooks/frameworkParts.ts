// What the framework gives every plugin beyond the helpers: partials for common message bodies
// (src/webhooks/partials/<name>.hbs, used as `{{> name …}}`), and the checks that keep plugins
// from growing their own copies of what the framework already has.
import fs from "node:fs";
import path from "node:path";
import type Handlebars from "handlebars";
import { compilePartial, HELPER_NAMES } from "./helpers";
import * as plugin from "./plugin";

const PARTIALS_DIR = path.join(__dirname, "partials");

let partials: Record<string, Handlebars.TemplateDelegate> | undefined;

/** The framework's partials, compiled once (a broken one is the framework's bug: it throws). */
export function frameworkPartials(): Record<string, Handlebars.TemplateDelegate> {
  if (!partials) {
    const compiled: Record<string, Handlebars.TemplateDelegate> = {};
    for (const file of fs
      .readdirSync(PARTIALS_DIR)
      .filter((f) => f.endsWith(".hbs"))
      .sort())
      compiled[file.slice(0, -4)] = compilePartial(
        fs.readFileSync(path.join(PARTIALS_DIR, file), "utf8").replace(/\r?\n$/, ""),
      );
    partials = compiled;
  }
  return partials;
}

/**
 * Framework helpers a transform may not declare a function of its own under: the template helpers
 * that src/webhooks/plugin.ts also gives transforms (one definition, the framework's).
 */
export const FRAMEWORK_FUNCTIONS: readonly string[] = Object.entries(plugin)
  .filter(([name, value]) => typeof value === "function" && HELPER_NAMES.includes(name))
  .map(([name]) => name)
  // nonEmptyText is for transforms only (scalarText is a template helper too, so listed above).
  .concat("nonEmptyText")
  .sort();

/** Emoji rows (`emoji: ":check:"`) that make a transform's code a lookup table. */
const EMOJI_ROWS_ALLOWED = 2;

/** Copies of framework parts in a transform's source, one problem line each. */
export function transformCopies(source: string): string[] {
  const problems: string[] = [];
  for (const m of source.matchAll(/\b(?:function\*?\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)/g))
    if (FRAMEWORK_FUNCTIONS.includes(m[1]))
      problems.push(`declares '${m[1]}', a framework function: import it from src/webhooks/plugin instead`);
  if (/typeof (\w+) === "string" && \1\.trim\(\) !== ""/.test(source))
    problems.push(
      "re-implements nonEmptyText (a trimmed non-empty string; scalarText also takes numbers): import it from src/webhooks/plugin",
    );
  const emojiRows = [...source.matchAll(/emoji:\s*":[a-z0-9_+-]+:"/g)].length;
  if (emojiRows > EMOJI_ROWS_ALLOWED)
    problems.push(
      `has ${emojiRows} emoji rows: a status → emoji table belongs in integration.json "tables", read with {{table}}`,
    );
  return problems;
}
