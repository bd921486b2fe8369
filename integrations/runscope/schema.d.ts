// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "counts".
 */
export type Counts = {
  pass?: number | null;
  fail?: number | null;
  total?: number | null;
  [k: string]: unknown;
} & Counts1;
export type Counts1 = {
  pass?: number | null;
  fail?: number | null;
  total?: number | null;
  [k: string]: unknown;
} | null;

export interface Payload {
  result: string;
  test_name: string;
  test_id?: string | null;
  test_url?: string | null;
  test_run_id?: string | null;
  test_run_url?: string | null;
  bucket_name?: string | null;
  team_name?: string | null;
  environment_name?: string | null;
  region_name?: string | null;
  agent?: string | null;
  started_at?: number | null;
  finished_at?: number | null;
  trigger_url?: string | null;
  requests?:
    | {
        url?: string | null;
        method?: string | null;
        result?: string | null;
        step_type?: string | null;
        note?: string | null;
        response_status_code?: string | number | null;
        response_time_ms?: number | null;
        assertions?: Counts;
        scripts?: Counts;
        variables?: Counts;
        [k: string]: unknown;
      }[]
    | null;
  [k: string]: unknown;
}
