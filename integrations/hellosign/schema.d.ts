// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event?: {
    event_type?: string;
    event_time?: string | number;
    event_hash?: string;
    [k: string]: unknown;
  };
  signature_request?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "with_request".
 */
export interface WithRequest {
  signature_request: {
    title: string;
    subject?: string | null;
    message?: string | null;
    test_mode?: boolean;
    is_complete?: boolean;
    is_declined?: boolean;
    details_url?: string | null;
    signing_url?: string | null;
    requester_email_address?: string | null;
    cc_email_addresses?: string[];
    signatures: {
      signer_name?: string | null;
      signer_email_address?: string | null;
      status_code?: string;
      signed_at?: number | string | null;
      decline_reason?: string | null;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
