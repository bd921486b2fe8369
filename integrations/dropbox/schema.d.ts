// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = {
  [k: string]: unknown;
} & {
  list_folder?: {
    accounts: string[];
    [k: string]: unknown;
  };
  delta?: {
    users: (number | string)[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
};
