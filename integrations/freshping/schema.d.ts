// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  organization_name?: string | null;
  webhook_event_id?: number | string | null;
  webhook_type?: string | null;
  webhook_event_created_on?: string | null;
  webhook_event_data: {
    check_state_name: string;
    check_id?: number | null;
    check_name?: string | null;
    application_name?: string | null;
    request_url?: string | null;
    request_start_time?: string | null;
    http_status_code?: number | null;
    response_time?: number | null;
    check_target_response_time?: number | null;
    check_computed_target_response_time?: number | null;
    recently_started_check_state_name?: string | null;
    recently_started_check_start_time?: string | null;
    recently_started_check_http_status_code?: number | null;
    recently_started_check_response_time?: number | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
