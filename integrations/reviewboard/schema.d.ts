// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "user".
 */
export type User = {
  username?: string;
  fullname?: string;
  [k: string]: unknown;
} & User1;
export type User1 = {
  username?: string;
  fullname?: string;
  [k: string]: unknown;
} | null;

export interface Payload {
  event?: string;
  is_new?: boolean;
  close_type?: string;
  closed_by?: User;
  reopened_by?: User;
  diff_comments?: unknown[];
  general_comments?: unknown[];
  file_attachment_comments?: unknown[];
  screenshot_comments?: unknown[];
  change?: {
    text?: string;
    [k: string]: unknown;
  } | null;
  review_request: {
    id: number;
    summary: string;
    absolute_url?: string;
    description?: string | null;
    branch?: string | null;
    close_description?: string | null;
    target_people?: {
      title?: string;
      [k: string]: unknown;
    }[];
    target_groups?: {
      title?: string;
      [k: string]: unknown;
    }[];
    links?: {
      submitter?: {
        title?: string;
        [k: string]: unknown;
      };
      repository?: {
        title?: string;
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
 * via the `definition` "comment".
 */
export interface Comment {
  absolute_url: string;
  body_top?: string | null;
  ship_it?: boolean;
  links?: {
    user?: {
      title?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "review".
 */
export interface Review {
  review: Comment;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "reply".
 */
export interface Reply {
  reply: Comment;
  [k: string]: unknown;
}
