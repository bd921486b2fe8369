// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  payload_type?: string;
  payload?: {
    display_id?: number | string;
    title?: string;
    method?: string;
    impact_level?: number;
    crashes_count?: number;
    impacted_devices_count?: number;
    url?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export interface Issue {
  payload: {
    title: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
