// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  event_name: string;
  data: {
    url?: string | null;
    item?: {
      id?: number | null;
      counter?: number | null;
      title?: string | null;
      environment?: string | null;
      level?: number | string | null;
      status?: number | string | null;
      total_occurrences?: number | null;
      unique_occurrences?: number | null;
      resolved_in_version?: string | null;
      framework?: number | string | null;
      first_occurrence_timestamp?: number | null;
      last_occurrence_timestamp?: number | null;
      last_occurrence?: {
        level?: string | null;
        language?: string | null;
        environment?: string | null;
        body?: {
          message?: {
            body?: string | null;
            [k: string]: unknown;
          } | null;
          trace?: {
            exception?: {
              class?: string | null;
              message?: string | null;
              [k: string]: unknown;
            } | null;
            [k: string]: unknown;
          } | null;
          [k: string]: unknown;
        } | null;
        server?: {
          host?: string | null;
          [k: string]: unknown;
        } | null;
        request?: {
          url?: string | null;
          [k: string]: unknown;
        } | null;
        person?: {
          id?: string | number | null;
          username?: string | null;
          email?: string | null;
          [k: string]: unknown;
        } | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    };
    occurrence?: {
      level?: string | null;
      language?: string | null;
      environment?: string | null;
      body?: {
        message?: {
          body?: string | null;
          [k: string]: unknown;
        } | null;
        trace?: {
          exception?: {
            class?: string | null;
            message?: string | null;
            [k: string]: unknown;
          } | null;
          [k: string]: unknown;
        } | null;
        [k: string]: unknown;
      } | null;
      server?: {
        host?: string | null;
        [k: string]: unknown;
      } | null;
      request?: {
        url?: string | null;
        [k: string]: unknown;
      } | null;
      person?: {
        id?: string | number | null;
        username?: string | null;
        email?: string | null;
        [k: string]: unknown;
      } | null;
      [k: string]: unknown;
    } | null;
    occurrences?: number | null;
    trigger?: {
      threshold?: number | null;
      window_size?: number | null;
      window_size_description?: string | null;
      [k: string]: unknown;
    } | null;
    deploy?: {
      id?: number | null;
      environment?: string | null;
      revision?: string | null;
      local_username?: string | null;
      comment?: string | null;
      start_time?: number | null;
      finish_time?: number | null;
      status?: string | null;
      [k: string]: unknown;
    };
    message?: string | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "item".
 */
export interface Item {
  data?: {
    item: {
      title: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "deploy".
 */
export interface Deploy {
  data?: {
    deploy: {
      environment: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "test".
 */
export interface Test {
  data?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
