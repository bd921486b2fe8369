// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event_id?: string;
  event_type: string;
  form_response: {
    form_id: string;
    token?: string;
    submitted_at?: string;
    landed_at?: string;
    calculated?: {
      score?: number;
      [k: string]: unknown;
    };
    definition?: {
      id?: string;
      title?: string;
      fields?: {
        id?: string;
        title?: string;
        type?: string;
        [k: string]: unknown;
      }[];
      [k: string]: unknown;
    };
    answers: {
      type: string;
      field?: {
        id?: string;
        type?: string;
        ref?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }[];
    hidden?: {
      [k: string]: unknown;
    };
    variables?: unknown[];
    ending?: {
      id?: string;
      ref?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
