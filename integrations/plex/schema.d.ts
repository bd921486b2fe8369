// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event: string;
  user?: boolean;
  owner?: boolean;
  rating?: number;
  Account?: {
    id?: number;
    thumb?: string;
    title?: string;
    [k: string]: unknown;
  };
  Server?: {
    title?: string;
    uuid?: string;
    [k: string]: unknown;
  };
  Player?: {
    local?: boolean;
    publicAddress?: string;
    title?: string;
    uuid?: string;
    [k: string]: unknown;
  };
  Metadata?: {
    librarySectionType?: string;
    librarySectionTitle?: string;
    key?: string;
    type?: string;
    title?: string;
    year?: number | string;
    grandparentTitle?: string;
    parentTitle?: string;
    index?: number;
    parentIndex?: number;
    summary?: string;
    contentRating?: string;
    studio?: string;
    duration?: number;
    userRating?: number;
    viewOffset?: number;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
