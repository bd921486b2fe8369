// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  problem: {
    url?: string | null;
    app_name: string;
    environment?: string | null;
    error_class?: string | null;
    message?: string | null;
    where?: string | null;
    notices_count?: number | null;
    comments_count?: number | null;
    first_notice_at?: string | null;
    last_notice_at?: string | null;
    resolved?: boolean | null;
    resolved_at?: string | null;
    issue_link?: string | null;
    issue_type?: string | null;
    hosts?: {
      [k: string]: {
        count?: number | null;
        value?: string | null;
        [k: string]: unknown;
      };
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
