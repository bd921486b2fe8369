// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  type: string;
  id?: number;
  CollectiveId?: number;
  data: {
    member?: {
      role?: string | null;
      memberCollective?: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    order?: {
      totalAmount?: number;
      currency?: string;
      interval?: string | null;
      description?: string | null;
      formattedAmountWithInterval?: string;
      [k: string]: unknown;
    };
    expense?: {
      id?: number | string;
      description?: string | null;
      amount?: number;
      currency?: string;
      [k: string]: unknown;
    };
    update?: {
      title?: string | null;
      slug?: string | null;
      [k: string]: unknown;
    };
    collective?: {
      [k: string]: unknown;
    };
    fromCollective?: {
      [k: string]: unknown;
    };
    user?: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "member".
 */
export interface Member {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "expense".
 */
export interface Expense {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "update".
 */
export interface Update {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
