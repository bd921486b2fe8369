// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  freshdesk_webhook: {
    triggered_event: string;
    ticket_id: string | number;
    ticket_url?: string;
    ticket_subject?: string;
    ticket_description?: string;
    ticket_type?: string;
    ticket_status?: string;
    ticket_priority?: string;
    ticket_agent_name?: string;
    ticket_group?: string;
    ticket_latest_public_comment?: string;
    ticket_latest_private_comment?: string;
    requester_name?: string;
    requester_email?: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
