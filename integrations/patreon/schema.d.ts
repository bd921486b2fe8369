// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  data: {
    type: string;
    id?: string;
    attributes?: {
      full_name?: string | null;
      patron_status?: string | null;
      last_charge_status?: string | null;
      currently_entitled_amount_cents?: number | null;
      will_pay_amount_cents?: number | null;
      lifetime_support_cents?: number | null;
      pledge_cadence?: number | null;
      title?: string | null;
      url?: string | null;
      is_paid?: boolean | null;
      is_public?: boolean | null;
      [k: string]: unknown;
    };
    relationships?: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  included?: unknown[];
  [k: string]: unknown;
}
