// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  status: string;
  session?: number | string;
  url?: string;
  commit_id?: string;
  committers?: string[];
  commiters?: string[];
  branch?: string;
  profile_name?: string;
  workers?: number;
  stopped_by?: string;
  counts?: {
    passed?: number;
    failed?: number;
    error?: number;
    pending?: number;
    skipped?: number;
    aborted?: number;
    [k: string]: unknown;
  };
  repository: {
    name: string;
    url?: string;
    org_name?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
