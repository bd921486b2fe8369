// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  Type: string;
  MessageId?: string;
  TopicArn: string;
  Subject?: string | null;
  Message?: string;
  Timestamp?: string;
  SubscribeURL?: string;
  UnsubscribeURL?: string;
  [k: string]: unknown;
}
