// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "person".
 */
export type Person = {
  id?: number;
  name?: string;
  email?: string | null;
  [k: string]: unknown;
} & Person1;
export type Person1 = {
  id?: number;
  name?: string;
  email?: string | null;
  [k: string]: unknown;
} | null;

export interface Payload {
  action: string;
  payload?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "job".
 */
export interface Job {
  id?: number;
  name?: string;
  status?: string | null;
  departments?: {
    name?: string;
    [k: string]: unknown;
  }[];
  offices?: {
    name?: string;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "application_event".
 */
export interface ApplicationEvent {
  payload: {
    application: {
      id?: number;
      status?: string | null;
      prospect?: boolean | null;
      applied_at?: string | null;
      rejected_at?: string | null;
      source?: {
        public_name?: string;
        [k: string]: unknown;
      } | null;
      credited_to?: Person;
      current_stage?: {
        name?: string;
        [k: string]: unknown;
      } | null;
      rejection_reason?: {
        name?: string;
        type?: {
          name?: string;
          [k: string]: unknown;
        } | null;
        [k: string]: unknown;
      } | null;
      job?: Job;
      jobs?: Job[];
      candidate: {
        id: number;
        first_name: string;
        last_name?: string | null;
        title?: string | null;
        company?: string | null;
        email_addresses?: {
          value?: string;
          type?: string;
          [k: string]: unknown;
        }[];
        phone_numbers?: {
          value?: string;
          type?: string;
          [k: string]: unknown;
        }[];
        recruiter?: Person;
        coordinator?: Person;
        tags?: string[];
        attachments?: {
          filename?: string;
          url?: string;
          type?: string;
          [k: string]: unknown;
        }[];
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
