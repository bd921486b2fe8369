// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  /**
   * @minItems 1
   */
  events: [
    {
      event: string;
      email?: string;
      timestamp?: number;
      type?: string;
      reason?: string;
      status?: string;
      response?: string;
      attempt?: string | number;
      bounce_classification?: string;
      url?: string;
      useragent?: string;
      ip?: string;
      category?: string | string[];
      asm_group_id?: number;
      marketing_campaign_name?: string;
      sg_message_id?: string;
      "smtp-id"?: string;
      pool?: {
        name?: string;
        id?: number;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    },
    ...{
      event: string;
      email?: string;
      timestamp?: number;
      type?: string;
      reason?: string;
      status?: string;
      response?: string;
      attempt?: string | number;
      bounce_classification?: string;
      url?: string;
      useragent?: string;
      ip?: string;
      category?: string | string[];
      asm_group_id?: number;
      marketing_campaign_name?: string;
      sg_message_id?: string;
      "smtp-id"?: string;
      pool?: {
        name?: string;
        id?: number;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }[],
  ];
  [k: string]: unknown;
}
