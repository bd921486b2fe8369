// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  build: {
    project_name: string;
    project_full_name?: string;
    status: string;
    build_id?: number | string;
    build_url?: string | null;
    commit_id?: string | null;
    short_commit_id?: string | null;
    commit_url?: string | null;
    message?: string | null;
    committer?: string | null;
    branch?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
