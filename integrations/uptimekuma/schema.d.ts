// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  msg?: string | null;
  heartbeat?: {
    monitorID?: number | null;
    status?: number | string;
    time?: string | null;
    msg?: string | null;
    ping?: number | null;
    important?: boolean | null;
    duration?: number | null;
    timezone?: string | null;
    localDateTime?: string | null;
    lastDownTime?: string | null;
    [k: string]: unknown;
  } | null;
  monitor?: {
    id?: number | null;
    name?: string | null;
    description?: string | null;
    pathName?: string | null;
    url?: string | null;
    type?: string | null;
    hostname?: string | null;
    port?: number | string | null;
    keyword?: string | null;
    invertKeyword?: boolean | null;
    tags?:
      | {
          name?: string | null;
          value?: string | null;
          [k: string]: unknown;
        }[]
      | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "beat".
 */
export interface Beat {
  heartbeat: {
    [k: string]: unknown;
  };
  monitor: {
    name: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export interface Message {
  msg: string;
  [k: string]: unknown;
}
