// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "content".
 */
export type Content = {
  [k: string]: unknown;
};

export interface Payload {
  webhookEvent: string;
  timestamp?: number | string;
  userKey?: string;
  user?: {
    displayName?: string;
    publicName?: string;
    username?: string;
    accountId?: string;
    _links?: {
      webui?: string;
      base?: string;
      self?: string;
      context?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  page?: {
    id: string | number;
    type?: string;
    status?: string;
    title?: string;
    space?: {
      key?: string;
      name?: string;
      _links?: {
        webui?: string;
        base?: string;
        self?: string;
        context?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    version?: {
      number?: number | string;
      [k: string]: unknown;
    };
    history?: {
      createdBy?: {
        displayName?: string;
        [k: string]: unknown;
      };
      createdDate?: string;
      [k: string]: unknown;
    };
    _links?: {
      webui?: string;
      base?: string;
      self?: string;
      context?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  blog?: {
    id: string | number;
    type?: string;
    status?: string;
    title?: string;
    space?: {
      key?: string;
      name?: string;
      _links?: {
        webui?: string;
        base?: string;
        self?: string;
        context?: string;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    version?: {
      number?: number | string;
      [k: string]: unknown;
    };
    history?: {
      createdBy?: {
        displayName?: string;
        [k: string]: unknown;
      };
      createdDate?: string;
      [k: string]: unknown;
    };
    _links?: {
      webui?: string;
      base?: string;
      self?: string;
      context?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  comment?: {
    id?: string | number;
    _links?: {
      webui?: string;
      base?: string;
      self?: string;
      context?: string;
      [k: string]: unknown;
    };
    container: {
      id: string | number;
      type?: string;
      status?: string;
      title?: string;
      space?: {
        key?: string;
        name?: string;
        _links?: {
          webui?: string;
          base?: string;
          self?: string;
          context?: string;
          [k: string]: unknown;
        };
        [k: string]: unknown;
      };
      version?: {
        number?: number | string;
        [k: string]: unknown;
      };
      history?: {
        createdBy?: {
          displayName?: string;
          [k: string]: unknown;
        };
        createdDate?: string;
        [k: string]: unknown;
      };
      _links?: {
        webui?: string;
        base?: string;
        self?: string;
        context?: string;
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
  [k: string]: unknown;
}
