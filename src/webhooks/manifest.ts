// The plugin manifest (integrations/<name>/integration.json): its TypeScript shape and the JSON
// Schema every manifest is validated against at start-up. This file is the contract for plugin authors.

export type EventSource =
  | { header: string; actionField?: string }
  | { field: string; default?: string; actionField?: string }
  | { fixed: string; actionField?: string };

export interface EventSpec {
  /** Template name under templates/ (without .hbs); defaults to the event key. */
  template?: string;
  /** Topic template for this event; defaults to the manifest's defaultTopic. */
  topic?: string;
  /** Known event that is deliberately dropped (success, no message). */
  ignore?: boolean;
  /** Template that, when it renders to non-blank text, drops this delivery (success, no message). */
  ignoreWhen?: string;
  /** JSON pointer into schema.json (e.g. "#/$defs/push") checked in addition to the root schema. */
  schema?: string;
  /** Path to an array in the view: one message per element (element fields merged over the view). */
  each?: string;
  /** Path to the git ref used by the `branches` URL option; overrides the manifest's branchPath (null disables). */
  branchPath?: string | null;
}

export interface SignatureSpec {
  header: string;
  algorithm: "sha256" | "sha1";
  /** Text before the hex digest in the header, e.g. "sha256=". */
  prefix?: string;
}

export interface UrlOption {
  key: string;
  description: string;
  default?: string;
}

export interface Manifest {
  name: string;
  displayName: string;
  description: string;
  categories: string[];
  eventSource: EventSource;
  defaultTopic: string;
  events: Record<string, EventSpec>;
  unknownEvents?: "error" | "ignore";
  schema?: string;
  contentType?: "json" | "form" | "form-json";
  signature?: SignatureSpec;
  urlOptions?: UrlOption[];
  branchPath?: string;
  transform?: string;
  docs?: string;
}

export const CATEGORIES = [
  "meta-integration",
  "bots",
  "video-calling",
  "continuous-integration",
  "customer-support",
  "deployment",
  "entertainment",
  "communication",
  "financial",
  "hr",
  "marketing",
  "misc",
  "monitoring",
  "project-management",
  "productivity",
  "version-control",
] as const;

/** Query parameters the framework itself reads; a plugin's urlOptions may not reuse them. */
export const RESERVED_PARAMS = ["api_key", "stream", "topic", "only_events", "exclude_events"];

const nonEmpty = { type: "string", minLength: 1 } as const;
const actionField = { type: "string", minLength: 1, description: "payload path whose value is appended as `.action`" } as const;

export const MANIFEST_SCHEMA = {
  $id: "switchboard:integration-manifest",
  type: "object",
  additionalProperties: false,
  required: ["name", "displayName", "description", "categories", "eventSource", "defaultTopic", "events"],
  properties: {
    $schema: { type: "string" },
    name: { type: "string", pattern: "^[a-z0-9_]+$" },
    displayName: nonEmpty,
    description: nonEmpty,
    categories: { type: "array", minItems: 1, uniqueItems: true, items: { enum: CATEGORIES } },
    eventSource: {
      oneOf: [
        { type: "object", additionalProperties: false, required: ["header"], properties: { header: { type: "string", pattern: "^[A-Za-z0-9-]+$" }, actionField } },
        { type: "object", additionalProperties: false, required: ["field"], properties: { field: nonEmpty, default: nonEmpty, actionField } },
        { type: "object", additionalProperties: false, required: ["fixed"], properties: { fixed: nonEmpty, actionField } },
      ],
    },
    defaultTopic: nonEmpty,
    events: {
      type: "object",
      minProperties: 1,
      propertyNames: { minLength: 1 },
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        properties: {
          template: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]*$" },
          topic: nonEmpty,
          ignore: { type: "boolean" },
          ignoreWhen: nonEmpty,
          schema: { type: "string", pattern: "^#/" },
          each: nonEmpty,
          branchPath: { type: ["string", "null"], minLength: 1 },
        },
      },
    },
    unknownEvents: { enum: ["error", "ignore"] },
    schema: nonEmpty,
    contentType: { enum: ["json", "form", "form-json"] },
    signature: {
      type: "object",
      additionalProperties: false,
      required: ["header", "algorithm"],
      properties: { header: { type: "string", pattern: "^[A-Za-z0-9-]+$" }, algorithm: { enum: ["sha256", "sha1"] }, prefix: { type: "string" } },
    },
    urlOptions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["key", "description"],
        properties: { key: { type: "string", pattern: "^[a-z][a-z0-9_]*$" }, description: nonEmpty, default: { type: "string" } },
      },
    },
    branchPath: nonEmpty,
    transform: { type: "string", pattern: "^[A-Za-z0-9_.-]+\\.(ts|js)$" },
    docs: { type: "string", pattern: "^[A-Za-z0-9_.-]+\\.md$" },
  },
} as const;
