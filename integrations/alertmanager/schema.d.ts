// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  status: string;
  alerts: {
    status: "firing" | "resolved";
    labels?: {
      [k: string]: string;
    };
    annotations?: {
      [k: string]: string;
    };
    generatorURL?: string | null;
    [k: string]: unknown;
  }[];
  [k: string]: unknown;
}
