// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  formID: string;
  formTitle?: string;
  submissionID?: string;
  username?: string;
  type?: string;
  ip?: string;
  pretty?: string;
  rawRequest?: string;
  [k: string]: unknown;
}
