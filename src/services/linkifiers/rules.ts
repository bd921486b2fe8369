// Validation of a linkifier definition: the pattern compiles under RE2, the URL template is
// RFC 6570 with exactly the pattern's groups as variables, and a reverse template given with
// an example input reproduces that input.
import { Errors } from "../../errors";
import { compilePattern, fullMatchGroups, groupNames } from "./pattern";
import { parseUrlTemplate } from "./urlTemplate";

export interface LinkifierDefinition {
  pattern: string;
  urlTemplate: string;
  exampleInput: string | null;
  reverseTemplate: string | null;
  alternativeUrlTemplates: string[];
}

function fail(field: string, msg: string): never {
  throw Errors.badRequest(msg, { errors: { [field]: [msg] } });
}

const quote = (s: string) => `'${s}'`;

/** `{name}` variables with `{{` / `}}` standing for literal braces. */
function parseReverseTemplate(template: string): { parts: (string | { name: string })[] } | { error: string } {
  const parts: (string | { name: string })[] = [];
  let literal = "";
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if ((ch === "{" || ch === "}") && template[i + 1] === ch) {
      literal += ch;
      i++;
    } else if (ch === "{") {
      const close = template.indexOf("}", i);
      const name = close === -1 ? "" : template.slice(i + 1, close);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
        return { error: "Invalid reverse template: use {name} for variables and {{ or }} for literal braces." };
      if (literal) parts.push(literal);
      literal = "";
      parts.push({ name });
      i = close;
    } else if (ch === "}") {
      return { error: "Invalid reverse template: use {name} for variables and {{ or }} for literal braces." };
    } else literal += ch;
  }
  if (literal) parts.push(literal);
  return { parts };
}

function checkTemplateVariables(
  field: string,
  what: string,
  template: string,
  groups: Set<string>,
  requireAll: boolean,
): void {
  const parsed = parseUrlTemplate(template);
  if ("error" in parsed) fail(field, parsed.error);
  const missingInPattern = parsed.variables.filter((v) => !groups.has(v)).sort();
  if (missingInPattern.length > 0)
    fail(field, `Group ${quote(missingInPattern[0])} in ${what} is not present in linkifier pattern.`);
  if (requireAll) {
    const missingInTemplate = [...groups].filter((g) => !parsed.variables.includes(g)).sort();
    if (missingInTemplate.length > 0)
      fail(field, `Group ${quote(missingInTemplate[0])} in linkifier pattern is not present in ${what}.`);
  }
}

export function validateLinkifier(def: LinkifierDefinition): void {
  if (def.pattern.trim() === "") fail("pattern", "Linkifier pattern cannot be empty.");
  compilePattern(def.pattern);
  const groups = new Set(groupNames(def.pattern));
  checkTemplateVariables("url_template", "URL template", def.urlTemplate, groups, true);
  for (const alt of def.alternativeUrlTemplates)
    checkTemplateVariables("alternative_url_templates", "alternative URL template", alt, groups, false);

  if (def.reverseTemplate !== null && def.exampleInput === null)
    fail("example_input", "example_input is required when reverse_template is given.");
  if (def.exampleInput === null) return;
  const values = fullMatchGroups(def.pattern, def.exampleInput);
  if (!values) fail("example_input", `example_input ${quote(def.exampleInput)} does not match the linkifier pattern.`);
  if (def.reverseTemplate === null) return;
  const parsed = parseReverseTemplate(def.reverseTemplate);
  if ("error" in parsed) fail("reverse_template", parsed.error);
  const unknown = parsed.parts.find((p): p is { name: string } => typeof p !== "string" && !groups.has(p.name));
  if (unknown)
    fail("reverse_template", `Group ${quote(unknown.name)} in reverse template is not present in linkifier pattern.`);
  const produced = parsed.parts.map((p) => (typeof p === "string" ? p : (values[p.name] ?? ""))).join("");
  if (produced !== def.exampleInput) {
    fail(
      "reverse_template",
      `Reverse template produces ${quote(produced)} from example_input, not ${quote(def.exampleInput)}.`,
    );
  }
}
