// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = (
  | {
      [k: string]: unknown;
    }
  | {
      pipeline: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
) & {
  name?: string;
  counter?: number | string;
  label?: string | null;
  /**
   * @minItems 1
   */
  stages?: [
    {
      jobs?: unknown[] | null;
      [k: string]: unknown;
    },
    ...{
      jobs?: unknown[] | null;
      [k: string]: unknown;
    }[],
  ];
  build_cause?: {
    material_revisions?:
      | {
          [k: string]: unknown;
        }[]
      | null;
    [k: string]: unknown;
  } | null;
  pipeline?: {
    name?: string;
    counter?: number | string;
    stage?: {
      jobs?: unknown[] | null;
      [k: string]: unknown;
    };
    "build-cause"?: {
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
};
