// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  AlertType?: string;
  Description: string;
  Intro?: string;
  CanaryName?: string;
  CanaryID?: string;
  CanaryIP?: string;
  CanaryPort?: number | string;
  CanaryLocation?: string;
  SourceIP?: string;
  ReverseDNS?: string;
  Timestamp?: string;
  Token?: string;
  Triggered?: number | string;
  Reminder?: string;
  IncidentHash?: string;
  AdditionalDetails?: (string | number | boolean | null)[][];
  [k: string]: unknown;
}
