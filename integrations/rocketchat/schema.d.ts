// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export type Payload = (
  | {
      text: string;
      [k: string]: unknown;
    }
  | {
      attachments: {
        [k: string]: unknown;
      };
      [k: string]: unknown;
    }
) & {
  text?: string | null;
  channel?: string | null;
  username?: string | null;
  icon_url?: string | null;
  icon_emoji?: string | null;
  attachments?:
    | {
        fallback?: string | null;
        color?: string | null;
        pretext?: string | null;
        text?: string | null;
        author_name?: string | null;
        author_link?: string | null;
        title?: string | null;
        title_link?: string | null;
        image_url?: string | null;
        thumb_url?: string | null;
        footer?: string | null;
        ts?: string | number | null;
        fields?:
          | {
              title?: string | null;
              value?: string | number | null;
              short?: boolean | null;
              [k: string]: unknown;
            }[]
          | null;
        author_icon?: string | null;
        message_link?: string | null;
        audio_url?: string | null;
        video_url?: string | null;
        collapsed?: boolean | null;
        [k: string]: unknown;
      }[]
    | null;
  alias?: string | null;
  emoji?: string | null;
  avatar?: string | null;
  roomId?: string | null;
  [k: string]: unknown;
};
