// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  model?: {
    url?: string;
    name?: string;
    [k: string]: unknown;
  };
  action: {
    id?: string;
    type: string;
    date?: string;
    memberCreator?: Member;
    member?: Member;
    data: {
      card?: Named;
      board?: Named;
      list?: Named;
      listBefore?: Named;
      listAfter?: Named;
      boardSource?: Named;
      boardTarget?: Named;
      cardSource?: Named;
      checklist?: Named;
      checkItem?: {
        name?: string;
        state?: string;
        [k: string]: unknown;
      };
      label?: {
        name?: string | null;
        color?: string | null;
        [k: string]: unknown;
      };
      attachment?: {
        name?: string;
        url?: string;
        [k: string]: unknown;
      };
      old?: {
        name?: string | null;
        due?: string | null;
        start?: string | null;
        [k: string]: unknown;
      };
      text?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "member".
 */
export interface Member {
  fullName?: string;
  username?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "named".
 */
export interface Named {
  name?: string;
  shortLink?: string;
  idShort?: number;
  due?: string | null;
  start?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "cardEvent".
 */
export interface CardEvent {
  action?: {
    data?: {
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "listEvent".
 */
export interface ListEvent {
  action?: {
    data?: {
      list: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
