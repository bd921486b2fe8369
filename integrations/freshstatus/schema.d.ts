// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string | number | null;
  title?: string | null;
  source?: string | null;
  status?: string | null;
  description?: string | null;
  message?: string | null;
  start_time?: string | null;
  end_time?: string | null;
  scheduled_end_time?: string | null;
  is_private?: string | boolean | null;
  incident_id?: string | number | null;
  incident_status?: string | null;
  affected_services?: string | unknown[] | null;
  event_data: {
    event_type?: string;
    event_id?: number | string | null;
    account_name?: string | null;
    event_created_on?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "titled".
 */
export interface Titled {
  title: string;
  [k: string]: unknown;
}
