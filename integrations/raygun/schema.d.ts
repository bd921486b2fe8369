// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event?: string | null;
  eventType?: string | null;
  error: {
    url?: string | null;
    message?: string | null;
    firstOccurredOn?: string | null;
    lastOccurredOn?: string | null;
    usersAffected?: number | null;
    totalOccurrences?: number | null;
    instance?: {
      tags?: string[] | null;
      [k: string]: unknown;
    } | null;
    description?: string | null;
    user?: string | null;
    status?: string | null;
    comment?: string | null;
    assignedTo?: string | null;
    [k: string]: unknown;
  };
  application: {
    name?: string | null;
    url?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
