// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "assessment".
 */
export type Assessment = {
  id?: string;
  url?: string;
  succeeded?: boolean;
  drifted?: boolean;
  all_checks_succeeded?: boolean;
  resources_drifted?: number;
  resources_undrifted?: number;
  checks_passed?: number;
  checks_failed?: number;
  checks_errored?: number;
  checks_unknown?: number;
  created_at?: string;
  [k: string]: unknown;
} & Assessment1;
export type Assessment1 = {
  id?: string;
  url?: string;
  succeeded?: boolean;
  drifted?: boolean;
  all_checks_succeeded?: boolean;
  resources_drifted?: number;
  resources_undrifted?: number;
  checks_passed?: number;
  checks_failed?: number;
  checks_errored?: number;
  checks_unknown?: number;
  created_at?: string;
  [k: string]: unknown;
} | null;

export interface Payload {
  payload_version?: number | string;
  notification_configuration_id?: string | null;
  notification_configuration_url?: string | null;
  run_url?: string | null;
  run_id?: string | null;
  run_message?: string | null;
  run_created_at?: string | null;
  run_created_by?: string | null;
  workspace_id?: string | null;
  workspace_name?: string | null;
  organization_name?: string | null;
  trigger_scope?: string;
  trigger?: string;
  message?: string;
  notifications?: {
    message?: string | null;
    trigger?: string;
    run_status?: string | null;
    run_updated_at?: string | null;
    run_updated_by?: string | null;
    [k: string]: unknown;
  }[];
  details?: {
    workspace_id?: string | null;
    workspace_name?: string | null;
    organization_name?: string | null;
    auto_destroy_at?: string | null;
    run_status?: string | null;
    run_created_at?: string | null;
    run_created_by?: string | null;
    run_message?: string | null;
    new_assessment_result?: Assessment;
    prior_assessment_result?: Assessment;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "run".
 */
export interface Run {
  workspace_name: string;
  /**
   * @minItems 1
   */
  notifications: [
    {
      [k: string]: unknown;
    },
    ...{
      [k: string]: unknown;
    }[],
  ];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "v2".
 */
export interface V2 {
  details: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
