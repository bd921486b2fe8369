// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  trigger: string;
  status?: string | null;
  executionId?: number | string;
  execution: {
    id?: number | string;
    href?: string | null;
    permalink?: string | null;
    status?: string | null;
    project?: string | null;
    user?: string | null;
    abortedby?: string | null;
    argstring?: string | null;
    description?: string | null;
    "date-started"?: {
      [k: string]: unknown;
    } | null;
    "date-ended"?: {
      [k: string]: unknown;
    } | null;
    failedNodes?: string | unknown[] | null;
    succeededNodes?: string | unknown[] | null;
    job?: {
      name?: string;
      group?: string | null;
      project?: string | null;
      permalink?: string | null;
      averageDuration?: number | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
