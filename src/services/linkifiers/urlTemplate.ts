// RFC 6570 URL templates: strict syntax check and variable names (the `url-template` package
// expands but does not validate), and expansion.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const urlTemplate: { parse(t: string): { expand(v: Record<string, unknown>): string } } = require("url-template");

const OPERATORS = "+#./;?&";
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const MODIFIER = /^(?::[1-9][0-9]{0,3}|\*)?$/;
// Literal characters: anything but controls, space and " ' % < > \ ^ ` { | } (except %HH).
// eslint-disable-next-line no-control-regex -- control characters are among those refused
const LITERAL_BAD = /[\u0000-\u0020\u007f"'<>\\^`{|}]/;

/** Variable names of a valid template, or an error message saying what is wrong. */
export function parseUrlTemplate(template: string): { variables: string[] } | { error: string } {
  // Only web links: a `javascript:`/`data:` template would turn every matching word into a script link.
  if (!/^https?:\/\/[^/{]/i.test(template))
    return { error: "URL template must start with http:// or https:// and a host." };
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    const literal = open === -1 ? template.slice(i) : template.slice(i, open);
    if (LITERAL_BAD.test(literal) || /%(?![0-9A-Fa-f]{2})/.test(literal)) return { error: "Invalid URL template." };
    if (open === -1) break;
    const close = template.indexOf("}", open);
    if (close === -1) return { error: "Invalid URL template." };
    let body = template.slice(open + 1, close);
    if (OPERATORS.includes(body[0] ?? "")) body = body.slice(1);
    if (body === "") return { error: "Invalid URL template." };
    for (const spec of body.split(",")) {
      // A variable name, then its modifier (`:3` or `*`) if any.
      const cut = spec.search(/[:*]/);
      const name = cut < 0 ? spec : spec.slice(0, cut);
      if (!VARNAME.test(name) || !MODIFIER.test(cut < 0 ? "" : spec.slice(cut)))
        return { error: "Invalid URL template." };
      if (!variables.includes(name)) variables.push(name);
    }
    i = close + 1;
  }
  return { variables };
}

export function expandUrlTemplate(template: string, values: Record<string, string | undefined>): string {
  return urlTemplate.parse(template).expand(values);
}
