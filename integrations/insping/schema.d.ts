// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  webhook_type: string;
  webhook_event_id?: number;
  organization_name?: string;
  webhook_event_data: {
    check_state_name: string;
    application_name?: string | null;
    request_url?: string | null;
    request_start_time?: string | null;
    response_time?: number | null;
    http_status_code?: number | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
