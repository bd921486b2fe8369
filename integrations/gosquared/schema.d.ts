// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  site_token?: string;
  timestamp?: string;
  person?: Person;
  message?: Message;
  concurrents?: number;
  triggeredAlert?: {
    id?: number | string;
    boundary?: string;
    value?: string | number;
    type?: string;
    [k: string]: unknown;
  };
  siteDetails?: {
    acct?: string;
    site_name?: string;
    domain?: string;
    url?: string;
    timezone?: string;
    [k: string]: unknown;
  };
  snapshot?: {
    time?: {
      time?: number | string;
      local?: string;
      [k: string]: unknown;
    };
    concurrents?: {
      visitors?: number;
      returning?: number;
      pages?: number;
      active?: number;
      tagged?: number;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "person".
 */
export interface Person {
  id?: string;
  name?: string | null;
  email?: string | null;
  status?: string | null;
  presence?: string | null;
  _anon?: {
    name?: string | null;
    [k: string]: unknown;
  };
  lead?: {
    email?: string | null;
    [k: string]: unknown;
  };
  chat?: {
    language?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export interface Message {
  type?: string;
  from?: string;
  content?: string | null;
  private?: boolean;
  session?: {
    title?: string | null;
    href?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "chat".
 */
export interface Chat {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "traffic".
 */
export interface Traffic {
  [k: string]: unknown;
}
