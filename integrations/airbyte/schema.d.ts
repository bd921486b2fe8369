// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "named".
 */
export type Named = {
  id?: string;
  name?: string;
  url?: string;
  [k: string]: unknown;
} & Named1;
export type Named1 = {
  id?: string;
  name?: string;
  url?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "notification".
 */
export type Notification =
  | {
      text: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
  | {
      data: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };

export interface Payload {
  text?: string;
  data?: {
    workspace?: Named;
    connection?: Named;
    source?: Named;
    destination?: Named;
    jobId?: number | string;
    startedAt?: string | null;
    finishedAt?: string | null;
    bytesEmitted?: number | null;
    bytesCommitted?: number | null;
    recordsEmitted?: number | null;
    recordsCommitted?: number | null;
    errorMessage?: string | null;
    durationFormatted?: string | null;
    bytesEmittedFormatted?: string | null;
    bytesCommittedFormatted?: string | null;
    success?: boolean;
    durationInSeconds?: number | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "sync".
 */
export interface Sync {
  data: {
    connection: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
