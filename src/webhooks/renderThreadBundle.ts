// The render thread's code as one JavaScript file. Started through tsx's require hook, a thread
// compiled and loaded its ~26 source modules one by one: 0.23–0.5 s per start. Bundled by esbuild
// (the compiler tsx itself runs on) it starts in 0.12–0.13 s (bench/threadStart.ts). The bundle
// is written under node_modules/.cache, named by the hash of its content, beside a list of the
// sources it was built from with their hashes: a process whose sources hash the same reuses it
// (reading and hashing them takes a millisecond or two), any other builds it (about 60 ms, mostly
// in esbuild's own process), so a thread never runs a stale bundle.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { BuildOptions } from "esbuild";

/** Bundles kept in the cache folder besides the one just built (older ones are removed). */
const KEEP_OLD_BUNDLES = 8;

let built: { entry: string; cacheDir: string; file: string | undefined } | undefined;

/**
 * The path of `entry` (a TypeScript file) bundled with the sources it imports (packages stay
 * `require`d from node_modules), built in `cacheDir`; undefined when it cannot be built or written
 * (no esbuild, a read-only folder): the caller then starts the thread through tsx as before.
 */
export function renderThreadBundle(entry: string, cacheDir: string): string | undefined {
  // A bundle removed meanwhile (newer sources built many since) is built again.
  if (built?.entry === entry && built.cacheDir === cacheDir && (built.file === undefined || fs.existsSync(built.file)))
    return built.file;
  built = { entry, cacheDir, file: buildInto(entry, cacheDir) };
  return built.file;
}

/** What a bundle was built from: its sources' hashes, and how (esbuild's version and the options). */
interface BuiltFrom {
  recipe: string;
  bundle: string;
  inputs: Record<string, string>;
}

const hashOf = (contents: string | Uint8Array) => crypto.createHash("sha256").update(contents).digest("hex");

/** The list of what the last bundle of `entry` was built from (one per entry). */
const builtFromFile = (entry: string, cacheDir: string) =>
  path.join(cacheDir, `built-from-${hashOf(entry).slice(0, 12)}.json`);

/** The bundle built before from the same recipe and sources, if it is still there. */
function reusable(entry: string, cacheDir: string, recipe: string): string | undefined {
  try {
    const from = JSON.parse(fs.readFileSync(builtFromFile(entry, cacheDir), "utf8")) as BuiltFrom;
    if (from.recipe !== recipe || !fs.existsSync(from.bundle)) return undefined;
    for (const [file, hash] of Object.entries(from.inputs))
      if (hashOf(fs.readFileSync(file, "utf8")) !== hash) return undefined;
    return from.bundle;
  } catch {
    return undefined; // none yet, or a source gone
  }
}

function buildInto(entry: string, cacheDir: string): string | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where threads start from sources
    const esbuild = require("esbuild") as typeof import("esbuild");
    const options = {
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      packages: "external",
      keepNames: true,
      sourcemap: "external",
      outfile: path.join(cacheDir, "render-thread.js"),
      write: false as const,
      logLevel: "silent",
      metafile: true as const,
      // Bundled, `__dirname` and `__filename` would name the bundle's folder; the thread reads files
      // beside its sources (the framework's partials). esbuild can only replace them everywhere
      // (plugins are not allowed in a synchronous build): with the entry's folder and file, which
      // is right for every file of that folder. A source elsewhere that uses them is refused below.
      define: { __dirname: JSON.stringify(path.dirname(entry)), __filename: JSON.stringify(entry) },
    } satisfies BuildOptions;
    const recipe = JSON.stringify([esbuild.version, options]);
    const known = reusable(entry, cacheDir, recipe);
    if (known) return known;
    const result = esbuild.buildSync(options);
    // Each source read once: for the check below and for the list of what the bundle was built from.
    const sources = Object.keys(result.metafile.inputs).map((input) => {
      const file = path.resolve(input);
      return { file, text: fs.readFileSync(file, "utf8") };
    });
    if (usesOwnPath(sources, path.dirname(entry))) return undefined;
    const js = result.outputFiles.find((f) => f.path.endsWith(".js"));
    const map = result.outputFiles.find((f) => f.path.endsWith(".js.map"));
    if (!js || !map) return undefined;
    const name = `render-thread-${hashOf(js.contents).slice(0, 16)}`;
    const file = path.join(cacheDir, `${name}.js`);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(cacheDir, { recursive: true });
      writeAtomically(`${file}.map`, map.contents);
      writeAtomically(file, Buffer.concat([js.contents, Buffer.from(`\n//# sourceMappingURL=${name}.js.map\n`)]));
      removeOldBundles(cacheDir, file);
    }
    const from: BuiltFrom = {
      recipe,
      bundle: file,
      inputs: Object.fromEntries(sources.map(({ file, text }) => [file, hashOf(text)])),
    };
    writeAtomically(builtFromFile(entry, cacheDir), Buffer.from(JSON.stringify(from)));
    return file;
  } catch {
    return undefined;
  }
}

/** Whether a bundled source outside `dir` names its own folder or file (see `define` above). */
function usesOwnPath(sources: { file: string; text: string }[], dir: string): boolean {
  return sources.some(({ file, text }) => path.dirname(file) !== dir && /\b__(dirname|filename)\b/.test(text));
}

/** Several processes may build the same bundle at once: each writes its own file, then renames it. */
function writeAtomically(file: string, contents: Uint8Array): void {
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

function removeOldBundles(cacheDir: string, current: string): void {
  const bundles = fs
    .readdirSync(cacheDir)
    .filter((name) => /^render-thread-[0-9a-f]{16}\.js$/.test(name) && path.join(cacheDir, name) !== current)
    .map((name) => ({ file: path.join(cacheDir, name), mtime: fs.statSync(path.join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of bundles.slice(KEEP_OLD_BUNDLES)) {
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.map`, { force: true });
  }
}
