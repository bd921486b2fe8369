// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = {
  [k: string]: unknown;
} & {
  id?: string;
  timestamp?: string;
  type?: string;
  workspace_id?: string;
  workspace_name?: string;
  subscription_id?: string;
  integration_id?: string;
  attempt_number?: number;
  verification_token?: string;
  authors?: {
    id?: string;
    type?: string;
    [k: string]: unknown;
  }[];
  accessible_by?: {
    id?: string;
    type?: string;
    [k: string]: unknown;
  }[];
  entity?: {
    id: string;
    type: string;
    [k: string]: unknown;
  };
  data?: {
    parent?: {
      id?: string;
      type?: string;
      [k: string]: unknown;
    };
    page_id?: string;
    updated_blocks?: {
      id?: string;
      type?: string;
      [k: string]: unknown;
    }[];
    updated_properties?: unknown[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
};
