// One JSON Schema that fits several sample payloads (npm run new-integration): a property is
// `required` only where every sample that has the object has it, and a type admits `null` where
// a sample has null. Integers and fractions merge into `number`; arrays' items merge across every
// element of every sample. Deep or empty parts stay open (no `properties`: any sub-path).
export type Schema = Record<string, unknown>;

const MAX_DEPTH = 6;

type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/** Merges the observed values at one place of the samples (undefined = absent there). */
function merge(values: unknown[], depth: number): Schema {
  const present = values.filter((v) => v !== undefined);
  const types = new Set(present.map(typeOf));
  if (types.has("integer") && types.has("number")) types.delete("integer");
  const schema: Schema = {};
  const list = [...types].sort((a, b) => (a === "null" ? 1 : b === "null" ? -1 : a.localeCompare(b)));
  if (list.length === 1) schema.type = list[0];
  else if (list.length > 1) schema.type = list;

  const objects = present.filter((v) => typeOf(v) === "object") as Record<string, unknown>[];
  if (objects.length > 0 && depth < MAX_DEPTH) {
    const keys = [...new Set(objects.flatMap((o) => Object.keys(o)))];
    if (keys.length > 0) {
      schema.properties = Object.fromEntries(
        keys.map((k) => [
          k,
          merge(
            objects.map((o) => o[k]),
            depth + 1,
          ),
        ]),
      );
      const required = keys.filter((k) => objects.every((o) => o[k] !== undefined));
      if (required.length > 0) schema.required = required;
    }
  }
  const arrays = present.filter(Array.isArray) as unknown[][];
  const elements = arrays.flat();
  if (elements.length > 0 && depth < MAX_DEPTH) schema.items = merge(elements, depth + 1);
  return schema;
}

/** The schema of one or more samples. */
export function inferSchema(...samples: unknown[]): Schema {
  return merge(samples, 0);
}
