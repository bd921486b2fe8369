// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  build?: {
    buildFullName: string;
    buildName?: string;
    projectName: string;
    buildNumber?: string | number;
    buildResult?: string;
    buildResultDelta?: string;
    buildStatus?: string | null;
    buildStatusUrl?: string;
    notifyType?: string;
    branchName?: string | null;
    branchDisplayName?: string | null;
    triggeredBy?: string | null;
    agentName?: string | null;
    teamcityProperties?: unknown[] | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
