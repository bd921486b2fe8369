// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  accountId?: number | string;
  webhookId?: string;
  eventId?: string;
  timestamp?: string;
  eventType: string;
  webhookName?: string;
  data: {
    jobId?: string | number;
    jobName: string;
    runId: string | number;
    environmentId?: string | number;
    environmentName?: string | null;
    dbtVersion?: string | null;
    projectName?: string | null;
    projectId?: string | number;
    runStatus?: string | null;
    runStatusCode?: number | string;
    runStatusMessage?: string | null;
    runReason?: string | null;
    runStartedAt?: string | null;
    runFinishedAt?: string | null;
    runErroredAt?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
