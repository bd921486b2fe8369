// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  title?: string | null;
  message: string;
  priority?: number | string | null;
  extras?: {
    "client::display"?: {
      contentType?: string;
      [k: string]: unknown;
    } | null;
    "client::notification"?: {
      click?: {
        url?: string;
        [k: string]: unknown;
      } | null;
      bigImageUrl?: string;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
