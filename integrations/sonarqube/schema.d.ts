// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  serverUrl?: string;
  taskId?: string;
  status?: string;
  analysedAt?: string;
  revision?: string;
  project: {
    key?: string;
    name: string;
    url?: string;
    [k: string]: unknown;
  };
  branch?: {
    name?: string;
    type?: string;
    isMain?: boolean;
    url?: string;
    [k: string]: unknown;
  };
  qualityGate?: {
    name?: string;
    status?: string;
    conditions?: {
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  properties?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
