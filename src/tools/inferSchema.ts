// A starting JSON Schema from one sample payload: types for everything, `required` only for
// the fields the starter template uses (the schema should state what templates rely on).
type Schema = Record<string, unknown>;

export function inferSchema(value: unknown, depth = 0): Schema {
  if (value === null) return {};
  if (Array.isArray(value)) return value.length > 0 && depth < 4 ? { type: "array", items: inferSchema(value[0], depth + 1) } : { type: "array" };
  if (typeof value === "object") {
    if (depth >= 4) return { type: "object" };
    const properties: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) properties[k] = inferSchema(v, depth + 1);
    return { type: "object", properties };
  }
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  return { type: typeof value };
}
