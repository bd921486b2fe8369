// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event?: {
    id?: string | null;
    event_type: string;
    occurred_at?: string | null;
    agent?: {
      [k: string]: unknown;
    } | null;
    data: {
      assignees?: unknown[] | null;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  } | null;
  messages?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "legacy".
 */
export interface Legacy {
  [k: string]: unknown;
}
