// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  manage_url: string;
  memo?: string | null;
  channel?: string | null;
  time?: string | null;
  token?: string | null;
  src_ip?: string | null;
  additional_data?: {
    [k: string]: unknown;
  } | null;
  useragent?: unknown;
  referer?: unknown;
  location?: unknown;
  [k: string]: unknown;
}
