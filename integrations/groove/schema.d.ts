// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  number?: number | string;
  title?: string | null;
  state?: string | null;
  priority?: string | null;
  assignee?: string | null;
  assigned_group?: string | null;
  mailbox?: string | null;
  customer_name?: string | null;
  summary?: string | null;
  last_message_plain_text?: string | null;
  tags?: unknown[];
  app_url?: string;
  app_ticket_url?: string;
  plain_text_body?: string | null;
  note?: boolean;
  links?: {
    ticket?: {
      href?: string;
      [k: string]: unknown;
    };
    author?: {
      href?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ticket".
 */
export interface Ticket {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export interface Message {
  links: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
