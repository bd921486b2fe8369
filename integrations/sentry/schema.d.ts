// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  action?: string | null;
  actor?: {
    type?: string | null;
    name?: string | null;
    [k: string]: unknown;
  } | null;
  data?: {
    issue?: Issue;
    resolution_type?: string | null;
    assignee?: {
      type?: string | null;
      name?: string | null;
      [k: string]: unknown;
    } | null;
    event?: Event;
    triggered_rule?: string | null;
    error?: Event;
    metric_alert?: {
      title?: string | null;
      date_started?: string | null;
      date_closed?: string | null;
      alert_rule?: {
        name?: string | null;
        environment?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    description_title?: string | null;
    description_text?: string | null;
    web_url?: string | null;
    comment?: string | null;
    issue_id?: string | number | null;
    project_slug?: string | null;
    installation?: {
      app?: {
        slug?: string | null;
        [k: string]: unknown;
      } | null;
      organization?: {
        slug?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    [k: string]: unknown;
  } | null;
  url?: string | null;
  message?: string | null;
  project_name?: string | null;
  culprit?: string | null;
  level?: string | null;
  triggering_rules?: string[] | null;
  event?: {
    title?: string | null;
    environment?: string | null;
    timestamp?: number | string | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "issue".
 */
export interface Issue {
  id: string | number;
  title: string;
  shortId?: string | null;
  web_url?: string | null;
  permalink?: string | null;
  culprit?: string | null;
  level?: string | null;
  priority?: string | null;
  count?: string | number | null;
  userCount?: number | null;
  firstSeen?: string | null;
  lastSeen?: string | null;
  substatus?: string | null;
  project?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  assignedTo?: {
    name?: string | null;
    [k: string]: unknown;
  } | null;
  statusDetails?: {
    inRelease?: string | null;
    inCommit?: {
      id?: string | null;
      [k: string]: unknown;
    } | null;
    ignoreUntil?: string | null;
    ignoreDuration?: number | null;
    ignoreCount?: number | null;
    ignoreUserCount?: number | null;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "event".
 */
export interface Event {
  title: string;
  web_url?: string | null;
  culprit?: string | null;
  level?: string | null;
  environment?: string | null;
  release?: string | null;
  datetime?: string | null;
  tags?: unknown[] | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "legacy".
 */
export interface Legacy {
  [k: string]: unknown;
}
