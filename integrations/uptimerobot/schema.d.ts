// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "alert".
 */
export type Alert = {
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export type Message = {
  [k: string]: unknown;
};

export interface Payload {
  monitor_url?: string | null;
  monitor_friendly_name?: string | null;
  alert_type?: string | number | null;
  alert_type_friendly_name?: string | null;
  alert_details?: string | null;
  alert_friendly_duration?: string | null;
  alert_datetime?: string | number | null;
  ssl_expiry_date?: string | null;
  ssl_expiry_days_left?: string | number | null;
  msg?: string | null;
  monitor?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
