// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  kind: string;
  creator?: {
    name?: string;
    [k: string]: unknown;
  };
  recording?: {
    title?: string | null;
    app_url?: string;
    due_on?: string | null;
    starts_at?: string | null;
    bucket?: {
      name?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "recordingEvent".
 */
export interface RecordingEvent {
  [k: string]: unknown;
}
