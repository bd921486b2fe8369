// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = (
  | {
      text: string;
      [k: string]: unknown;
    }
  | {
      cardsV2: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
  | {
      cards: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
) & {
  text?: string | null;
  fallbackText?: string | null;
  cardsV2?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  cards?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  thread?: {
    threadKey?: string;
    name?: string;
    [k: string]: unknown;
  } | null;
  [k: string]: unknown;
};
