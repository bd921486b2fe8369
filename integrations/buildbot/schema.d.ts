// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  /**
   * the master-wide build id
   */
  buildid: number;
  /**
   * the builder's own build number (ZulipStatusPush leaves it out: it is the last segment of url)
   */
  number?: number | null;
  buildername: string;
  url?: string | null;
  project?: string | null;
  timestamp?: number | null;
  results?: number | null;
  [k: string]: unknown;
}
