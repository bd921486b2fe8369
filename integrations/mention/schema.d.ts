// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string | number;
  title: string;
  url: string;
  description?: string;
  description_medium?: string;
  source_name?: string;
  source_url?: string;
  source_type?: string;
  language_code?: string;
  country?: string;
  tone?: string | number;
  published_at?: string;
  author_influence?: {
    name?: string;
    url?: string;
    score?: string | number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
