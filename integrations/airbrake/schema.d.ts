// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  airbrake_error_url?: string | null;
  error: {
    id?: string | number | null;
    error_message: string;
    error_class?: string | null;
    file?: string | null;
    line_number?: number | null;
    environment?: string | null;
    first_occurred_at?: string | null;
    last_occurred_at?: string | null;
    times_occurred?: number | null;
    project?: {
      name?: string | null;
      [k: string]: unknown;
    } | null;
    last_notice?: {
      request_url?: string | null;
      backtrace?: string[] | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
