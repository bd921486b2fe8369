// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  callback_url?: string;
  push_data: {
    pushed_at?: number;
    pusher?: string;
    tag?: string;
    [k: string]: unknown;
  };
  repository: {
    name: string;
    namespace: string;
    owner?: string;
    repo_name?: string;
    repo_url?: string;
    description?: string;
    full_description?: string | null;
    is_official?: boolean;
    is_private?: boolean;
    is_trusted?: boolean;
    star_count?: number;
    comment_count?: number;
    status?: string;
    date_created?: number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
