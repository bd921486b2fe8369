// Generated from schema.json by `npm run plugin-types` (src/tools/pluginTypes.ts): do not edit.
// The type of a payload that passed the schema: fields the schema does not declare are `unknown`.

export interface Payload {
  domain: string;
  event_type: string;
  destination?: string;
  jpd_origin?: string;
  source?: string;
  data: {
    name?: string;
    path?: string;
    repo_key?: string;
    sha256?: string;
    size?: number;
    source_repo_path?: string;
    target_repo_path?: string;
    property_key?: string;
    property_values?: string[];
    image_name?: string;
    tag?: string;
    platforms?: {
      architecture?: string;
      os?: string;
      [k: string]: unknown;
    }[];
    build_name?: string;
    build_number?: string | number;
    build_started?: string;
    source_repo?: string;
    target_repo?: string;
    status?: string;
    release_bundle_name?: string;
    release_bundle_version?: string;
    release_bundle_size?: number;
    status_message?: string;
    transaction_id?: number | string;
    edge_node_info_list?: {
      edge_node_address?: string;
      edge_node_name?: string;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
