// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type?: string;
  message?: string;
  topic?: string;
  ticket_id?: string | number;
  ticket_title?: string;
  ticket_url?: string;
  link?: string;
  ticket_status?: string;
  ticket_priority?: string;
  ticket_type?: string;
  ticket_description?: string;
  latest_comment?: string;
  requester_full_name?: string;
  assignee_full_name?: string;
  tags?: string;
  current_user?: string;
  action?: string;
  zendesk_event_version?: string;
  subject?: string;
  detail?: {
    id?: string | number;
    subject?: string | null;
    description?: string | null;
    status?: string | null;
    priority?: string | null;
    type?: string | null;
    tags?: string[] | null;
    [k: string]: unknown;
  };
  event?: {
    current?: unknown;
    previous?: unknown;
    comment?: {
      body?: string | null;
      is_public?: boolean;
      author?: {
        name?: string | null;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "trigger".
 */
export interface Trigger {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "event".
 */
export interface Event {
  detail: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
