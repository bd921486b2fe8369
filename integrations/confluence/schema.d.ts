// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  timestamp?: number | string;
  userKey?: string;
  page?: {
    id: string | number;
    [k: string]: unknown;
  };
  blog?: {
    id: string | number;
    [k: string]: unknown;
  };
  comment?: {
    id: string | number;
    [k: string]: unknown;
  };
  oldParent?: {
    id: string | number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "page".
 */
export interface Page {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "blog".
 */
export interface Blog {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "comment".
 */
export interface Comment {
  [k: string]: unknown;
}
