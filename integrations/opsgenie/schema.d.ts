// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  action: string;
  alert: {
    alertId: string;
    tinyId?: string | null;
    alias?: string | null;
    message?: string | null;
    description?: string | null;
    username?: string | null;
    entity?: string | null;
    source?: string | null;
    priority?: string | number | null;
    tags?: string[] | null;
    note?: string | null;
    owner?: string | null;
    addedTags?: string | null;
    removedTags?: string | null;
    snoozedUntil?: number | string | null;
    createdAt?: number | null;
    updatedAt?: number | null;
    [k: string]: unknown;
  };
  escalationName?: string | null;
  escalationNotify?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "create".
 */
export interface Create {
  alert?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
