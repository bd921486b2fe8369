// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event_type: string;
  event_id?: string;
  event_data: {
    id?: string | number;
    score: number;
    comment?: string | null;
    permalink?: string | null;
    person?: {
      name?: string | null;
      email?: string | null;
      [k: string]: unknown;
    } | null;
    tags?: string[];
    notes?: {
      text?: string;
      [k: string]: unknown;
    }[];
    person_properties?: {
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
