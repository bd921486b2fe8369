// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  description: string;
  text?: string;
  user?: string;
  card?: string;
  cardId?: string;
  boardId?: string;
  listId?: string;
  oldListId?: string;
  comment?: string;
  commentId?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "cardEvent".
 */
export interface CardEvent {
  card: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "commentEvent".
 */
export interface CommentEvent {
  [k: string]: unknown;
}
