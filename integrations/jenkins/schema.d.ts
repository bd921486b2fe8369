// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  name: string;
  display_name?: string;
  url?: string;
  build: {
    full_url?: string;
    number?: number;
    queue_id?: number;
    phase: string;
    status?: string;
    url?: string;
    display_name?: string;
    timestamp?: unknown;
    duration?: number;
    notes?: string;
    log?: string;
    parameters?: {
      [k: string]: unknown;
    };
    artifacts?: {
      [k: string]: unknown;
    };
    test_summary?: {
      total?: number;
      failed?: number;
      skipped?: number;
      passed?: number;
      failedTests?: string[];
      [k: string]: unknown;
    };
    scm?: {
      url?: string;
      branch?: string;
      commit?: string;
      changes?: string[];
      culprits?: string[];
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
