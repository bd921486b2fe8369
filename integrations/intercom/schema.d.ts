// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type?: string;
  topic: string;
  id?: string | null;
  app_id?: string;
  data: {
    item: {
      type?: string;
      id?: string | number;
      name?: string | null;
      email?: string | null;
      user_id?: string | null;
      event_name?: string;
      created_at?: number | string | null;
      plan?: {
        name?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
