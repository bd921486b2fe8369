// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  type: string;
  emitted_at?: number;
  conversation: {
    id: string;
    subject?: string | null;
    status?: string;
    [k: string]: unknown;
  };
  source?: {
    [k: string]: unknown;
  } | null;
  target?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
