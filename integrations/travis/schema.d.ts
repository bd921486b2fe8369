// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: number;
  number: string | number;
  type?: string;
  state?: string | null;
  status_message: string;
  result_message?: string | null;
  duration?: number | null;
  build_url?: string | null;
  started_at?: string | null;
  finished_at?: string | null;
  commit?: string | null;
  branch?: string | null;
  tag?: string | null;
  message?: string | null;
  compare_url?: string | null;
  author_name?: string | null;
  committer_name?: string | null;
  pull_request?: boolean;
  pull_request_number?: number | null;
  pull_request_title?: string | null;
  repository: {
    name: string;
    owner_name?: string;
    url?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
