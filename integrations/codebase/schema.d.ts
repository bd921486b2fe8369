// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  ref?: string;
  before?: string;
  after?: string;
  user?: {
    name?: string;
    username?: string;
    email?: string;
    [k: string]: unknown;
  };
  repository: {
    name: string;
    url?: string;
    project?: {
      name?: string;
      url?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  commits: {
    id: string;
    message?: string;
    url?: string;
    timestamp?: string;
    author?: {
      name?: string;
      email?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
