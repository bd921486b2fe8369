// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  action?: string;
  effective_date?: string | null;
  zen?: string;
  hook_id?: number;
  sponsorship?: {
    created_at?: string;
    privacy_level?: string;
    sponsor?: Account;
    sponsorable?: Account;
    tier?: Tier;
    [k: string]: unknown;
  };
  changes?: {
    tier?: {
      from?: Tier;
      [k: string]: unknown;
    };
    privacy_level?: {
      from?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  sender?: Account;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "account".
 */
export interface Account {
  login: string;
  html_url?: string;
  type?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "tier".
 */
export interface Tier {
  name: string;
  description?: string | null;
  monthly_price_in_dollars?: number;
  monthly_price_in_cents?: number;
  is_one_time?: boolean;
  is_custom_amount?: boolean;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "sponsorship".
 */
export interface Sponsorship {
  sponsorship: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ping".
 */
export interface Ping {
  [k: string]: unknown;
}
