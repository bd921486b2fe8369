// Tiny argv parser for the authoring scripts: positionals plus `--key value` / `--flag`.
// `options` keeps the last value of a repeated option; `all` keeps every value in order.
export function parseArgs(argv: string[]): {
  positional: string[];
  options: Record<string, string | true>;
  all: Record<string, string[]>;
} {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  const all: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const [key, inline] = a.slice(2).split(/=(.*)/s, 2);
    if (inline !== undefined) options[key] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) options[key] = argv[++i];
    else options[key] = true;
    if (typeof options[key] === "string") (all[key] ??= []).push(options[key] as string);
  }
  return { positional, options, all };
}

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
