// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  id?: string;
  result?: {
    resolvedQuery?: string;
    fulfillment?: {
      speech?: string;
      displayText?: string;
      [k: string]: unknown;
    };
    metadata?: {
      intentName?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  alternateResult?: {
    fulfillment?: {
      speech?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  status: {
    code: number | string;
    errorType?: string;
    errorDetails?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
