// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  involvedObject: {
    apiVersion?: string;
    kind: string;
    name: string;
    namespace?: string;
    uid?: string;
    [k: string]: unknown;
  };
  severity?: string;
  timestamp?: string;
  message: string;
  reason?: string;
  metadata?: {
    [k: string]: string;
  };
  reportingController?: string;
  reportingInstance?: string;
  [k: string]: unknown;
}
