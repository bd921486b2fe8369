// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  goal: {
    slug: string;
    title?: string | null;
    losedate?: number | null;
    baremin?: string | null;
    limsumdate?: string | null;
    pledge?: number | null;
    secret?: boolean | null;
    yaxis?: string | null;
    curval?: number | null;
    goalval?: number | null;
    headsum?: string | null;
    graph_url?: string | null;
    lost?: boolean | null;
    won?: boolean | null;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
