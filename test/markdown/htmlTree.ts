// A tiny tolerant HTML normaliser for comparing rendered messages: both strings are parsed into a
// tree (tags, attributes, text), attributes are sorted, entities decoded, and whitespace-only text
// between tags dropped, then the tree is printed back canonically. Not a full HTML parser: enough
// for the well-formed fragments a Markdown renderer emits.

const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "col", "wbr", "source"]);

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, "&quot;");

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** The canonical form of an HTML fragment. */
export function normaliseHtml(html: string): string {
  const out: string[] = [];
  let pos = 0;
  let text = "";
  const flushText = () => {
    if (text.trim() !== "") out.push(escapeText(decodeEntities(text)));
    text = "";
  };
  while (pos < html.length) {
    const lt = html.indexOf("<", pos);
    if (lt < 0) {
      text += html.slice(pos);
      break;
    }
    text += html.slice(pos, lt);
    const match = TAG.exec(html.slice(lt));
    if (!match) {
      text += "<";
      pos = lt + 1;
      continue;
    }
    flushText();
    const [whole, closing, rawName, rawAttrs] = match;
    const name = rawName.toLowerCase();
    if (closing) {
      if (!VOID.has(name)) out.push(`</${name}>`);
    } else {
      const attrs: string[] = [];
      for (const a of rawAttrs.matchAll(ATTR)) {
        const value = a[2] ?? a[3] ?? a[4] ?? "";
        attrs.push(`${a[1].toLowerCase()}="${escapeAttr(decodeEntities(value))}"`);
      }
      attrs.sort();
      out.push(`<${[name, ...attrs].join(" ")}>`);
    }
    pos = lt + whole.length;
  }
  flushText();
  return out.join("");
}
