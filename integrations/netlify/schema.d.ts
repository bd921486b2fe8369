// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  name: string;
  state?: string | null;
  url?: string | null;
  ssl_url?: string | null;
  admin_url?: string | null;
  deploy_ssl_url?: string | null;
  error_message?: string | null;
  branch?: string | null;
  context?: string | null;
  commit_ref?: string | null;
  commit_url?: string | null;
  committer?: string | null;
  title?: string | null;
  review_id?: number | null;
  review_url?: string | null;
  deploy_time?: number | null;
  locked?: boolean | null;
  published_at?: string | null;
  [k: string]: unknown;
}
