// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type: string;
  occur_at?: number;
  operator?: string | null;
  event_data: {
    resources?:
      | {
          digest?: string | null;
          tag?: string | null;
          resource_url?: string | null;
          [k: string]: unknown;
        }[]
      | null;
    repository?: {
      name?: string;
      namespace?: string;
      repo_full_name?: string;
      repo_type?: string;
      [k: string]: unknown;
    } | null;
    custom_attributes?: {
      Details?: string;
      [k: string]: unknown;
    } | null;
    replication?: {
      job_status?: string | null;
      trigger_type?: string | null;
      src_resource?: {
        namespace?: string | null;
        [k: string]: unknown;
      } | null;
      dest_resource?: {
        registry_name?: string | null;
        [k: string]: unknown;
      } | null;
      successful_artifact?: unknown[] | null;
      failed_artifact?: unknown[] | null;
      [k: string]: unknown;
    } | null;
    retention?: {
      project_name?: string | null;
      status?: string | null;
      total?: number | null;
      retained?: number | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "artifacts".
 */
export interface Artifacts {
  event_data?: {
    resources: {
      [k: string]: unknown;
    };
    repository: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
