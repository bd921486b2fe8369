// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "update".
 */
export type Update = {
  [k: string]: unknown;
};

export interface Payload {
  eventType: string;
  instanceName?: string;
  release?: Release;
  isUpgrade?: boolean;
  deletedFiles?: unknown;
  deleteReason?: string;
  downloadClient?: string | null;
  downloadClientType?: string | null;
  downloadId?: string | null;
  downloadStatus?: string | null;
  downloadInfo?: {
    title?: string;
    quality?: string;
    size?: number;
    [k: string]: unknown;
  };
  downloadStatusMessages?: {
    title?: string;
    messages?: string[];
    [k: string]: unknown;
  }[];
  level?: string;
  message?: string;
  type?: string;
  wikiUrl?: string;
  previousVersion?: string;
  newVersion?: string;
  artist?: {
    id?: number;
    name?: string;
    path?: string;
    mbId?: string;
    [k: string]: unknown;
  };
  album?: Album;
  albums?: Album[] | null;
  tracks?:
    | {
        title?: string;
        trackNumber?: string | number;
        quality?: string;
        [k: string]: unknown;
      }[]
    | null;
  trackFiles?: File[] | null;
  renamedTrackFiles?: {
    path?: string;
    previousPath?: string;
    [k: string]: unknown;
  }[];
  quality?: string;
  qualityVersion?: number;
  releaseTitle?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "release".
 */
export interface Release {
  quality?: string;
  qualityVersion?: number;
  releaseGroup?: string | null;
  releaseTitle?: string;
  indexer?: string;
  size?: number;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "album".
 */
export interface Album {
  id?: number;
  title?: string;
  releaseDate?: string;
  foreignAlbumId?: string;
  quality?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "file".
 */
export interface File {
  relativePath?: string;
  path?: string;
  quality?: unknown;
  qualityVersion?: number;
  releaseGroup?: string | null;
  sceneName?: string | null;
  size?: number;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "health".
 */
export interface Health {
  message: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Payload`'s JSON-Schema
 * via the `definition` "artistEvent".
 */
export interface ArtistEvent {
  artist: {
    name: string;
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
