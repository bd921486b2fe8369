// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type: string;
  action: string;
  date?: string;
  by?: {
    full_name?: string;
    username?: string;
    [k: string]: unknown;
  };
  data: {
    permalink?: string;
    subject?: string;
    name?: string;
    slug?: string;
    ref?: number;
    [k: string]: unknown;
  };
  change?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "itemEvent".
 */
export interface ItemEvent {
  data?: {
    subject: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "namedEvent".
 */
export interface NamedEvent {
  data?: {
    name: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "wikiEvent".
 */
export interface WikiEvent {
  data?: {
    slug: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
