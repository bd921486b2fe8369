// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  alert?: {
    id?: number | string;
    name: string;
    description?: string | null;
    runbook_url?: string | null;
    [k: string]: unknown;
  };
  clear?: string;
  triggered_by_user_test?: boolean;
  conditions?: unknown[];
  violations?: {
    [k: string]: unknown;
  };
  attachments?: {
    author_name?: string | null;
    title?: string | null;
    title_link?: string | null;
    image_url?: string | null;
    [k: string]: unknown;
  }[];
  metric?: {
    name?: string;
    [k: string]: unknown;
  };
  measurements?: {
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
