// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = (
  | {
      text: string;
      [k: string]: unknown;
    }
  | {
      title: string;
      [k: string]: unknown;
    }
  | {
      sections: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
  | {
      attachments: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
  | {
      body: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
) & {
  "@type"?: string;
  type?: string;
  title?: string | null;
  summary?: string | null;
  text?: string | null;
  themeColor?: string | null;
  sections?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  potentialAction?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  attachments?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  body?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  actions?:
    | {
        [k: string]: unknown;
      }[]
    | null;
  [k: string]: unknown;
};
