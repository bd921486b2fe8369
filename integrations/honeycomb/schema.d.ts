// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "groups".
 */
export type Groups =
  | {
      Group?: {
        [k: string]: unknown;
      } | null;
      Result?: number | string | null;
      [k: string]: unknown;
    }[]
  | null;

export interface Payload {
  version?: string | null;
  id?: string | null;
  name: string;
  status: string;
  summary?: string | null;
  description?: string | null;
  trigger_description?: string | null;
  operator?: string | null;
  threshold?: number | null;
  result_url?: string | null;
  trigger_url?: string | null;
  is_test?: boolean | null;
  result_groups?: Groups;
  result_groups_triggered?: Groups;
  [k: string]: unknown;
}
