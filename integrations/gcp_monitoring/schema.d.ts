// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  version?: string;
  incident: {
    incident_id: string;
    scoping_project_id?: string | null;
    scoping_project_number?: number | string | null;
    url?: string | null;
    severity?: string | null;
    started_at?: number | null;
    ended_at?: number | null;
    state: string;
    summary?: string | null;
    apigee_url?: string | null;
    observed_value?: string | number | null;
    threshold_value?: string | number | null;
    resource_id?: string | null;
    resource_name?: string | null;
    resource_type_display_name?: string | null;
    resource?: {
      type?: string;
      labels?: {
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    metric?: {
      type?: string;
      displayName?: string;
      labels?: {
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    policy_name?: string | null;
    condition_name?: string | null;
    condition?: {
      [k: string]: unknown;
    } | null;
    documentation?: {
      content?: string | null;
      mime_type?: string | null;
      subject?: string | null;
      [k: string]: unknown;
    } | null;
    policy_user_labels?: {
      [k: string]: unknown;
    } | null;
    metadata?: {
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
