// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * Only what the templates need is required; the Events API posts many more fields (blocks, authorizations, attachments), left unchecked so that a new Slack field is never an error Slack would retry.
 */
export interface Payload {
  type?: string;
  token?: string;
  challenge?: string;
  team_id?: string;
  api_app_id?: string;
  event_id?: string;
  event_time?: number;
  event?: {
    type?: string;
    subtype?: string | null;
    hidden?: boolean | null;
    user?: string | null;
    bot_id?: string | null;
    text?: string | null;
    channel?: string | null;
    channel_type?: string;
    ts?: string;
    thread_ts?: string;
    files?:
      | {
          id?: string;
          name?: string | null;
          title?: string | null;
          mimetype?: string;
          permalink?: string;
          url_private?: string;
          [k: string]: unknown;
        }[]
      | null;
    [k: string]: unknown;
  };
  team_domain?: string;
  service_id?: string;
  channel_id?: string;
  channel_name?: string;
  timestamp?: string;
  user_id?: string;
  user_name?: string;
  text?: string;
  trigger_word?: string;
  [k: string]: unknown;
}
/**
 * Slack's legacy outgoing webhook: form fields; the reference refuses a delivery without user_name or text.
 *
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "outgoing_webhook".
 */
export interface OutgoingWebhook {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "url_verification".
 */
export interface UrlVerification {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export interface Message {
  event: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
