// Every relative link in README.md and docs/*.md names a file that exists, and a `#fragment` names a
// heading of the file it points to (GitHub's anchors: lower case, punctuation dropped, spaces → -).
import fs from "node:fs";
import path from "node:path";

const ROOT = path.join(__dirname, "../..");
const files = [
  "README.md",
  ...fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

function withoutCode(text: string): string {
  return text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, "");
}

function anchors(file: string): Set<string> {
  const text = fs.readFileSync(file, "utf8").replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "");
  const found = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    let slug = base;
    for (let n = 1; found.has(slug); n++) slug = `${base}-${n}`;
    found.add(slug);
  }
  return found;
}

it.each(files)("%s: relative links resolve", (file) => {
  const text = withoutCode(fs.readFileSync(path.join(ROOT, file), "utf8"));
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue; // http:, https:, mailto:
    const [where, fragment] = target!.split("#") as [string, string | undefined];
    const resolved = where === "" ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), where);
    if (!fs.existsSync(resolved)) broken.push(`${target} (no such file)`);
    else if (fragment && resolved.endsWith(".md") && !anchors(resolved).has(fragment))
      broken.push(`${target} (no such heading)`);
  }
  expect(broken).toEqual([]);
});
