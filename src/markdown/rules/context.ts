// What a message renders against, resolved by the caller (the message service reads the database;
// the renderer itself stays a pure function of text + this context).
import type { ActiveLinkifier } from "./linkifiers";

export interface CustomEmoji {
  id: number;
  url: string;
}

export interface MentionableUser {
  id: number;
  fullName: string;
}

/** What the message mentions (filled in while rendering; silent mentions are not recorded). */
export interface MentionsFound {
  userIds: Set<number>;
  groupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

export function noMentions(): MentionsFound {
  return { userIds: new Set(), groupIds: new Set(), streamWildcard: false, topicWildcard: false };
}

export interface RenderContext {
  /** Users the content may mention: by lower-cased full name (several when shared) and by id. */
  users?: { byName: Map<string, MentionableUser[]>; byId: Map<number, MentionableUser> };
  /** User groups the content may mention, by lower-cased name. */
  groups?: Map<string, { id: number; name: string }>;
  /** Channels the content may link to (`#**name**`), by lower-cased name. */
  channels?: Map<string, { id: number; name: string }>;
  /** Collects the mentions found while rendering. */
  mentions?: MentionsFound;
  /** The user's "translate emoticons" setting: `:)` → :smile:. */
  translateEmoticons?: boolean;
  /** Realm custom emoji by name (active ones only). */
  customEmoji?: Map<string, CustomEmoji>;
  /** The organization's own URL: links into it render as relative `#narrow/…` fragments. */
  realmUrl?: string;
  /** The realm's linkifiers, compiled, in order. */
  linkifiers?: ActiveLinkifier[];
}
