// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * Only the outline is checked; the transform reads everything inside blocks and attachments defensively, so unknown block types and odd values give less output rather than an error.
 */
export interface Payload {
  text?: string | null;
  channel?: string | null;
  username?: string | null;
  icon_emoji?: string | null;
  icon_url?: string | null;
  blocks?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  attachments?:
    | {
        fields?:
          | {
              [k: string]: unknown;
            }[]
          | null;
        blocks?:
          | {
              [k: string]: unknown;
            }[]
          | null;
        [k: string]: unknown;
      }[]
    | null;
  [k: string]: unknown;
}
