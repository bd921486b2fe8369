// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  kind?: string;
  highlight?: string;
  message?: string;
  performed_by?: {
    name?: string;
    [k: string]: unknown;
  };
  project?: {
    name?: string;
    [k: string]: unknown;
  };
  primary_resources?: unknown[];
  changes?: unknown[];
  activity?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "v3".
 */
export interface V3 {
  activity: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "v5".
 */
export interface V5 {
  primary_resources: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
