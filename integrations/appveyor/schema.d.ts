// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  eventName: string;
  eventData: {
    passed?: boolean;
    failed?: boolean;
    status?: string;
    duration?: string | null;
    projectName: string;
    buildNumber?: number | string;
    buildVersion?: string | null;
    buildUrl?: string | null;
    branch?: string | null;
    isTag?: boolean | null;
    tagName?: string | null;
    isPullRequest?: boolean | null;
    pullRequestId?: number | string | null;
    pullRequestTitle?: string | null;
    pullRequestName?: string | null;
    commitId?: string | null;
    commitUrl?: string | null;
    commitMessage?: string | null;
    commitAuthor?: string | null;
    environmentName?: string | null;
    jobs?: unknown[] | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
