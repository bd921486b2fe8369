// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "formatted".
 */
export type Formatted = {
  raw?: string | null;
  [k: string]: unknown;
} & Formatted1;
export type Formatted1 = {
  raw?: string | null;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "named".
 */
export type Named = {
  name?: string;
  [k: string]: unknown;
} & Named1;
export type Named1 = {
  name?: string;
  [k: string]: unknown;
} | null;
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  name?: string;
  login?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  name?: string;
  login?: string;
  [k: string]: unknown;
} | null;

export interface Payload {
  action?: string;
  work_package?: WorkPackage;
  project?: Project;
  time_entry?: {
    id?: number;
    hours?: string;
    spentOn?: string;
    ongoing?: boolean;
    comment?: Formatted;
    _embedded?: {
      project?: Project;
      workPackage?: WorkPackage;
      user?: User;
      activity?: Named;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  attachment?: {
    id?: number;
    fileName?: string;
    fileSize?: number;
    contentType?: string;
    description?: Formatted;
    _embedded?: {
      author?: User;
      container?: {
        _type?: string;
        id?: number;
        subject?: string;
        name?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workPackage".
 */
export interface WorkPackage {
  id: number;
  subject: string;
  description?: Formatted;
  startDate?: string | null;
  dueDate?: string | null;
  estimatedTime?: string | null;
  percentageDone?: number | null;
  _embedded?: {
    type?: Named;
    status?: Named;
    priority?: Named;
    project?: Named;
    author?: User;
    assignee?: User;
    responsible?: User;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "project".
 */
export interface Project {
  id?: number;
  identifier?: string;
  name: string;
  active?: boolean;
  public?: boolean;
  description?: Formatted;
  statusExplanation?: Formatted;
  _embedded?: {
    parent?: Named;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "workPackageEvent".
 */
export interface WorkPackageEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "projectEvent".
 */
export interface ProjectEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "timeEntryEvent".
 */
export interface TimeEntryEvent {
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "attachmentEvent".
 */
export interface AttachmentEvent {
  [k: string]: unknown;
}
