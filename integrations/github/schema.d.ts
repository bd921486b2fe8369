// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "text".
 */
export type Text = string;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalText".
 */
export type OptionalText = string | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalUser".
 */
export type OptionalUser = {
  login: Text;
  html_url?: string | null;
  [k: string]: unknown;
} & OptionalUser1;
export type OptionalUser1 = {
  login: Text;
  html_url?: string | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "labelItem".
 */
export type LabelItem = {
  name?: string | null;
  description?: string | null;
  [k: string]: unknown;
} & LabelItem1;
export type LabelItem1 = {
  name?: string | null;
  description?: string | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "milestoneItem".
 */
export type MilestoneItem = {
  title?: string | null;
  html_url?: string | null;
  description?: string | null;
  due_on?: string | null;
  open_issues?: number | null;
  closed_issues?: number | null;
  [k: string]: unknown;
} & MilestoneItem1;
export type MilestoneItem1 = {
  title?: string | null;
  html_url?: string | null;
  description?: string | null;
  due_on?: string | null;
  open_issues?: number | null;
  closed_issues?: number | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ping".
 */
export type Ping = {
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "push".
 */
export type Push = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "ref".
 */
export type Ref = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request".
 */
export type PullRequest1 = RepoEvent & {
  pull_request: PullRequest;
  before?: string | null;
  after?: string | null;
  reason?: string | null;
  milestone?: MilestoneItem;
  label?: LabelItem;
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request_assigned".
 */
export type PullRequestAssigned = PullRequest1 & Assignment;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request_review_requested_event".
 */
export type PullRequestReviewRequestedEvent = PullRequest1 & ReviewRequest;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "review_request".
 */
export type ReviewRequest = ReviewRequest1 & {
  requested_reviewer?: User;
  requested_team?: {
    name: Text;
    html_url?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
};
export type ReviewRequest1 = {
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issues".
 */
export type Issues = RepoEvent & {
  issue: Issue;
  milestone?: MilestoneItem;
  label?: LabelItem;
  type?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
};
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issues_assigned".
 */
export type IssuesAssigned = Issues & Assignment;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue_comment".
 */
export type IssueComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request_review".
 */
export type PullRequestReview = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request_review_comment".
 */
export type PullRequestReviewComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pull_request_review_thread".
 */
export type PullRequestReviewThread = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commit_comment".
 */
export type CommitComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "discussion".
 */
export type Discussion = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "discussion_comment".
 */
export type DiscussionComment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "release".
 */
export type Release = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "check_run".
 */
export type CheckRun = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "check_suite".
 */
export type CheckSuite = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflow_run".
 */
export type WorkflowRun = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflow_job".
 */
export type WorkflowJob = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workflow_dispatch".
 */
export type WorkflowDispatch = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository_dispatch".
 */
export type RepositoryDispatch = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deployment".
 */
export type Deployment = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deployment_status".
 */
export type DeploymentStatus = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deployment_review".
 */
export type DeploymentReview = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "merge_group".
 */
export type MergeGroup = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "fork".
 */
export type Fork = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "member".
 */
export type Member = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "team_add".
 */
export type TeamAdd = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "team".
 */
export type Team = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "membership".
 */
export type Membership = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "organization".
 */
export type Organization = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "org_block".
 */
export type OrgBlock = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "label".
 */
export type Label = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "milestone".
 */
export type Milestone = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "gollum".
 */
export type Gollum = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "page_build".
 */
export type PageBuild = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "branch_protection_rule".
 */
export type BranchProtectionRule = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deploy_key".
 */
export type DeployKey = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "meta".
 */
export type Meta = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository_import".
 */
export type RepositoryImport = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "package".
 */
export type Package = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "registry_package".
 */
export type RegistryPackage = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "dependabot_alert".
 */
export type DependabotAlert = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "code_scanning_alert".
 */
export type CodeScanningAlert = RepoOnly;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "secret_scanning_alert".
 */
export type SecretScanningAlert = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository_vulnerability_alert".
 */
export type RepositoryVulnerabilityAlert = RepoEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "installation".
 */
export type Installation = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "installation_repositories".
 */
export type InstallationRepositories = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "github_app_authorization".
 */
export type GithubAppAuthorization = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "optionalPurchase".
 */
export type OptionalPurchase = {
  unit_count?: number | null;
  plan?: {
    name?: string | null;
    unit_name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
} & OptionalPurchase1;
export type OptionalPurchase1 = {
  unit_count?: number | null;
  plan?: {
    name?: string | null;
    unit_name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project".
 */
export type Project = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project_card".
 */
export type ProjectCard = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project_column".
 */
export type ProjectColumn = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "enterpriseItem".
 */
export type EnterpriseItem = {
  name?: string | null;
  html_url?: string | null;
  [k: string]: unknown;
} & EnterpriseItem1;
export type EnterpriseItem1 = {
  name?: string | null;
  html_url?: string | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user_event".
 */
export type UserEvent = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "enterprise_event".
 */
export type EnterpriseEvent = OrgEvent;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "projects_v2_item".
 */
export type ProjectsV2Item = OrgEvent;

export interface Payload {
  action?: string;
  sender?: User;
  repository?: Repository;
  organization?: Org;
  changes?: {
    [k: string]: unknown;
  } | null;
  installation?: {
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export interface User {
  login: Text;
  html_url?: string | null;
  type?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repository".
 */
export interface Repository {
  name: Text;
  full_name: Text;
  html_url: Text;
  private?: boolean | null;
  description?: string | null;
  default_branch?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "org".
 */
export interface Org {
  login: Text;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repoEvent".
 */
export interface RepoEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "repoOnly".
 */
export interface RepoOnly {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "orgEvent".
 */
export interface OrgEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "teamItem".
 */
export interface TeamItem {
  name?: string | null;
  html_url?: string | null;
  permission?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "pullRequest".
 */
export interface PullRequest {
  number: number;
  title: string;
  html_url: Text;
  body?: string | null;
  draft?: boolean | null;
  merged?: boolean | null;
  merged_by?: OptionalUser;
  active_lock_reason?: string | null;
  auto_merge?: {
    [k: string]: unknown;
  } | null;
  head?: {
    ref: string;
    [k: string]: unknown;
  };
  base?: {
    ref: string;
    [k: string]: unknown;
  };
  assignee?: OptionalUser;
  assignees?: User[];
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export interface Issue {
  number: number;
  title: string;
  html_url: Text;
  body?: string | null;
  state_reason?: string | null;
  active_lock_reason?: string | null;
  assignee?: OptionalUser;
  assignees?: User[];
  pull_request?: {
    [k: string]: unknown;
  } | null;
  type?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "discussionItem".
 */
export interface DiscussionItem {
  number: number;
  title: string;
  html_url: Text;
  body?: string | null;
  state_reason?: string | null;
  category?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "comment".
 */
export interface Comment {
  html_url: Text;
  body?: string | null;
  parent_id?: number | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "packageItem".
 */
export interface PackageItem {
  name: Text;
  html_url?: string | null;
  package_type?: string | null;
  owner?: OptionalUser;
  package_version?: {
    version?: string | null;
    html_url?: string | null;
    installation_command?: string | null;
    container_metadata?: {
      [k: string]: unknown;
    } | null;
    release?: {
      tag_name?: string | null;
      html_url?: string | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "assignment".
 */
export interface Assignment {
  assignee: User;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deploymentItem".
 */
export interface DeploymentItem {
  ref: Text;
  sha?: string | null;
  environment: Text;
  task?: string | null;
  description?: string | null;
  creator?: OptionalUser;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "status".
 */
export interface Status {
  sha: Text;
  state: Text;
  target_url?: string | null;
  context?: string | null;
  description?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "security_advisory".
 */
export interface SecurityAdvisory {
  security_advisory: {
    ghsa_id: Text;
    cve_id?: string | null;
    summary?: string | null;
    severity?: string | null;
    html_url?: string | null;
    vulnerabilities?: {
      packageItem?: {
        name?: string | null;
        ecosystem?: string | null;
        [k: string]: unknown;
      } | null;
      vulnerable_version_range?: string | null;
      first_patched_version?: {
        identifier?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "sponsorship".
 */
export interface Sponsorship {
  effective_date?: string | null;
  sponsorship: {
    sponsor: User;
    sponsorable: User;
    privacy_level?: string | null;
    tier?: {
      name?: string | null;
      is_one_time?: boolean | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "installationItem".
 */
export interface InstallationItem {
  app_slug?: string | null;
  repository_selection?: string | null;
  account?: OptionalUser;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "marketplace_purchase".
 */
export interface MarketplacePurchase {
  effective_date?: string | null;
  marketplace_purchase: Purchase;
  previous_marketplace_purchase?: OptionalPurchase;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "purchase".
 */
export interface Purchase {
  account: User;
  billing_cycle?: string | null;
  unit_count?: number | null;
  on_free_trial?: boolean | null;
  free_trial_ends_on?: string | null;
  plan: {
    name: Text;
    unit_name?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
