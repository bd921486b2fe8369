// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  events: {
    event: string;
    ts?: number;
    url?: string;
    ip?: string;
    user_agent?: string;
    location?: {
      city?: string;
      country?: string;
      [k: string]: unknown;
    } | null;
    msg: {
      email: string;
      subject?: string;
      sender?: string;
      state?: string;
      tags?: string[];
      bounce_description?: string;
      diag?: string;
      subaccount?: string | null;
      template?: string | null;
      opens?: unknown[];
      clicks?: unknown[];
      smtp_events?: {
        diag?: string;
        type?: string;
        [k: string]: unknown;
      }[];
      _id?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
