// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "message".
 */
export type Message = {
  text?: string;
  markdown?: string;
  [k: string]: unknown;
} & Message1;
export type Message1 = {
  text?: string;
  markdown?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "text".
 */
export type Text = string;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "identity".
 */
export type Identity = {
  displayName?: string;
  [k: string]: unknown;
} & Identity1;
export type Identity1 = {
  displayName?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "generic".
 */
export type Generic = {
  [k: string]: unknown;
};

export interface Payload {
  eventType?: string;
  message?: Message;
  detailedMessage?: Message;
  resource?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository".
 */
export interface Repository {
  name: Text;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export interface Push {
  resource: {
    repository: Repository;
    pushedBy: Identity;
    /**
     * @minItems 1
     */
    refUpdates: [
      {
        name: string;
        oldObjectId?: string;
        newObjectId?: string;
        [k: string]: unknown;
      },
      ...{
        name: string;
        oldObjectId?: string;
        newObjectId?: string;
        [k: string]: unknown;
      }[],
    ];
    commits?: {
      commitId: string;
      comment?: string;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pullRequest".
 */
export interface PullRequest {
  pullRequestId: number;
  title: string;
  description?: string;
  status?: string;
  isDraft?: boolean;
  repository: Repository;
  createdBy?: Identity;
  closedBy?: Identity;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request".
 */
export interface PullRequest1 {
  resource: PullRequest;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pr_comment".
 */
export interface PrComment {
  resource: {
    pullRequest: PullRequest;
    comment: {
      content?: string;
      author?: Identity;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "build".
 */
export interface Build {
  resource: {
    buildNumber: string;
    definition: {
      name: Text;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workitem".
 */
export interface Workitem {
  resource: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
