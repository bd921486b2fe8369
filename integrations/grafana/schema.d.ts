// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "legacy".
 */
export type Legacy = {
  [k: string]: unknown;
};

export interface Payload {
  status?: string | null;
  title?: string | null;
  truncatedAlerts?: number | null;
  alerts?:
    | {
        status?: string | null;
        labels?: {
          [k: string]: string;
        } | null;
        annotations?: {
          [k: string]: string;
        } | null;
        startsAt?: string | null;
        endsAt?: string | null;
        generatorURL?: string | null;
        silenceURL?: string | null;
        dashboardURL?: string | null;
        panelURL?: string | null;
        imageURL?: string | null;
        values?: {
          [k: string]: unknown;
        } | null;
        [k: string]: unknown;
      }[]
    | null;
  commonLabels?: {
    [k: string]: string;
  } | null;
  state?: string | null;
  ruleName?: string | null;
  ruleUrl?: string | null;
  message?: string | null;
  imageUrl?: string | null;
  evalMatches?:
    | {
        metric?: string | null;
        value?: number | string | null;
        [k: string]: unknown;
      }[]
    | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "unified".
 */
export interface Unified {
  [k: string]: unknown;
}
