// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  alert: {
    id?: number | string;
    name: string;
    runbook_url?: string | null;
    version?: number | null;
    description?: string | null;
    [k: string]: unknown;
  };
  account?: string | null;
  trigger_time?: number | null;
  clear?: string;
  triggered_by_user_test?: boolean;
  conditions?: {
    id?: number | string;
    type?: string;
    threshold?: number | null;
    summary_function?: string | null;
    duration?: number | null;
    [k: string]: unknown;
  }[];
  violations?: {
    [k: string]: {
      metric?: string;
      value?: number | string | null;
      recorded_at?: number | null;
      condition_violated?: number | string;
      [k: string]: unknown;
    }[];
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "triggered".
 */
export interface Triggered {
  [k: string]: unknown;
}
