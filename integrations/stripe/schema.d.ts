// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  type: string;
  livemode?: boolean;
  created?: number | string;
  data?: {
    object: {
      [k: string]: unknown;
    };
    previous_attributes?: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  related_object?: {
    id?: string;
    type?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
