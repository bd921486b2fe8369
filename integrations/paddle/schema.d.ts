// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event_type: string;
  event_id?: string;
  notification_id?: string;
  occurred_at?: string;
  data: {
    id: string;
    name?: string | null;
    description?: string | null;
    email?: string;
    status?: string;
    locale?: string;
    marketing_consent?: boolean;
    type?: string | null;
    code?: string | null;
    amount?: string;
    action?: string;
    reason?: string;
    currency_code?: string;
    customer_id?: string | null;
    subscription_id?: string | null;
    transaction_id?: string;
    product_id?: string;
    invoice_number?: string | null;
    origin?: string;
    collection_mode?: string;
    billed_at?: string | null;
    next_billed_at?: string | null;
    canceled_at?: string | null;
    paused_at?: string | null;
    first_billed_at?: string | null;
    city?: string | null;
    country_code?: string;
    company_number?: string | null;
    unit_price?: {
      amount?: string;
      currency_code?: string;
      [k: string]: unknown;
    };
    billing_cycle?: {
      interval?: string;
      frequency?: number;
      [k: string]: unknown;
    } | null;
    current_billing_period?: {
      starts_at?: string;
      ends_at?: string;
      [k: string]: unknown;
    } | null;
    scheduled_change?: {
      action?: string;
      effective_at?: string;
      [k: string]: unknown;
    } | null;
    checkout?: {
      url?: string | null;
      [k: string]: unknown;
    } | null;
    details?: {
      totals?: {
        grand_total?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    } | null;
    totals?: {
      total?: string;
      [k: string]: unknown;
    } | null;
    items?: {
      quantity?: number;
      status?: string;
      price?: {
        id?: string;
        description?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
