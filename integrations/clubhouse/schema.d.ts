// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  primary_id?: number | string;
  /**
   * @minItems 1
   */
  actions: [
    {
      id: number | string;
      entity_type: string;
      action: string;
      name?: string;
      description?: string;
      text?: string;
      changes?: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    },
    ...{
      id: number | string;
      entity_type: string;
      action: string;
      name?: string;
      description?: string;
      text?: string;
      changes?: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }[],
  ];
  references?: {
    name?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
