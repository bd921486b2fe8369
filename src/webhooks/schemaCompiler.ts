// The Ajv instance each plugin's payload schema is compiled with. One instance per plugin, so a
// plugin's schema ids cannot collide with another's and its compiled code goes when it does (a
// render thread drops plugins it has not used for a while: pipelineWorker.ts).
import Ajv from "ajv";
import addFormats from "ajv-formats";
import RE2 from "re2";

/**
 * A schema's `pattern` keywords match payload text: they run on RE2 (linear time), not on
 * JavaScript's backtracking engine, where `^(a+)+$` against 40 a's and a "!" runs for days. RE2 has
 * no lookaround or backreferences: a pattern using them stops start-up with its schema named.
 */
const linearRegExp = Object.assign((pattern: string, flags: string) => new RE2(pattern, flags), { code: "re2" });

const OPTIONS = { allErrors: true, strict: false, code: { regExp: linearRegExp } } as const;

/**
 * Checks schemas against the meta-schema for every plugin's instance. Ajv compiles the meta-schema
 * once per instance, the first time it checks a schema: 12 ms, which for 128 plugins was a quarter
 * of the loader's time at start-up (docs/benchmarks.md#start-up). This one compiles it once.
 */
const metaChecker = addFormats(new Ajv(OPTIONS));

class PluginAjv extends Ajv {
  // The same check and the same "schema is invalid: …" error as Ajv's own, on the shared instance.
  override validateSchema(schema: Parameters<Ajv["validateSchema"]>[0], throwOrLogError?: boolean) {
    return metaChecker.validateSchema(schema, throwOrLogError);
  }
}

/**
 * A new instance for one plugin. `optimize: false`: Ajv's optimizing pass over the code it writes
 * took 40% of a compile; the validators it leaves out accept and refuse the same payloads, and a
 * 5-commit GitHub push validates in 1–2 µs either way.
 */
export function pluginAjv({ checkSchemas = true }: { checkSchemas?: boolean } = {}): Ajv {
  const options = { ...OPTIONS, code: { ...OPTIONS.code, optimize: false } };
  // Without the check against the meta-schema for folders already loaded with it (render threads).
  return addFormats(checkSchemas ? new PluginAjv(options) : new Ajv({ ...options, validateSchema: false }));
}
