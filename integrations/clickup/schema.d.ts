// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = {
  [k: string]: unknown;
} & {
  event: string;
  webhook_id?: string;
  team_id?: string | number;
  task_id?: string | number;
  list_id?: string | number;
  folder_id?: string | number;
  space_id?: string | number;
  goal_id?: string | number;
  key_result_id?: string | number;
  history_items?: {
    field?: string;
    before?: unknown;
    after?: unknown;
    date?: unknown;
    user?: {
      username?: string;
      email?: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
};
