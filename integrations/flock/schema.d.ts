// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  uid?: string;
  to?: string;
  from?: string;
  text: string;
  notification?: string;
  flockml?: string;
  timestamp?: string;
  sendAs?: {
    name?: string;
    profileImage?: string;
    [k: string]: unknown;
  };
  attachments?: {
    title?: string;
    description?: string;
    color?: string;
    views?: {
      [k: string]: unknown;
    };
    buttons?: {
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
