// The plugin manifest (integrations/<name>/integration.json): its TypeScript shape and the JSON
// Schema every manifest is validated against at start-up. This file is the contract for plugin authors.

import {
  MAX_API_LOOKUPS,
  MAX_URL_OPTION_VALUES,
  MAX_WEBHOOK_REPLY_FIELD_CHARS,
  MAX_WEBHOOK_REPLY_FIELDS,
} from "../limits";
import { API_LOOKUP_MAX_IDS, API_LOOKUP_MAX_PATTERN_CHARS } from "../limits";

/** Payload/header value (as a string: numbers in decimal, true/false, null → "null") → event name. */
export type EventMap = Record<string, string>;

export type EventSource =
  | { header: string; actionField?: string; map?: EventMap; /** event when the header is absent */ default?: string }
  | { field: string; default?: string; actionField?: string; map?: EventMap }
  | { fixed: string; actionField?: string };

/** Fields an event inherits from its family (`a` for `a.b`) and from the manifest's eventDefaults. */
export interface InheritedSpec {
  /** Template name under templates/ (without .hbs); defaults to the event key. */
  template?: string;
  /** Topic template for this event; defaults to the manifest's defaultTopic. */
  topic?: string;
  /** Template: non-blank output drops this delivery (success, no message). null: none (cancels an inherited one). */
  ignoreWhen?: string | null;
  /** JSON pointer into schema.json (e.g. "#/$defs/push") checked in addition to the root schema. */
  schema?: string;
  /** Path to an array in the view: one message per element (element fields merged over the view). */
  each?: string;
  /** Path to the git ref used by the `branches` URL option; overrides the manifest's branchPath (null disables). */
  branchPath?: string | null;
  /** Always deliver as a direct message to the bot's owner instead of the channel. */
  direct?: boolean;
  /** Template: when it renders non-blank text, this delivery is a direct message to the bot's owner. */
  directWhen?: string | null;
  /**
   * Template: when it renders non-blank text (trimmed), the message goes to the channel of that name
   * instead of the URL's `stream` (Slack's channels mapping, Desk.com's stream field). null: none.
   */
  channel?: string | null;
}

export const INHERITED_FIELDS = [
  "template",
  "topic",
  "ignoreWhen",
  "schema",
  "each",
  "branchPath",
  "direct",
  "directWhen",
  "channel",
] as const satisfies readonly (keyof InheritedSpec)[];

/**
 * Extra fields of the success answer `{"result":"success","msg":"", ...}`: field → plain-text
 * template rendered over the payload (Slack's `{"challenge": "{{challenge}}"}`, HelloSign's
 * `{"msg": "Hello API Event Received"}`). A field that renders empty is left out.
 */
export type ReplySpec = Record<string, string>;

/** Answer fields a plugin's `reply` may not set: the envelope's own. */
export const RESERVED_REPLY_FIELDS = ["result", "code"];
export const REPLY_FIELD_PATTERN = /^[a-z_][a-z0-9_]{0,39}$/;

export interface EventSpec extends InheritedSpec {
  /** Known event that is deliberately dropped (success, no message). Not inherited. */
  ignore?: boolean;
  /** This event's answer fields, over the manifest's `reply` (field by field). Not inherited from families. */
  reply?: ReplySpec;
}

/** Where a delivery's unique id is (for de-duplication): a header or a payload path. */
export type DeliveryIdSource = { header: string } | { field: string };

export type ContentType = "json" | "form" | "form-json" | "xml" | "query" | "text";

export interface SignatureSpec {
  /** The header holding the digest (exactly one of `header` and `field`). */
  header?: string;
  /**
   * A payload path holding the digest, for services that sign inside the body (the loader requires
   * `signedText` with it: the digest cannot cover the body that holds it).
   */
  field?: string;
  /**
   * sha512: HCP Terraform signs with HMAC-SHA512. "token": no digest, the header carries the shared
   * secret itself (Honeycomb's X-Honeycomb-Webhook-Token), compared in constant time.
   * "ecdsa-p256-sha256": the header is a base64 DER ECDSA signature (SHA-256), checked with the
   * bot's secret read as the service's public key (base64 SPKI DER).
   */
  algorithm: "sha256" | "sha1" | "sha512" | "token" | "ecdsa-p256-sha256";
  /**
   * What the digest covers, when it is not the raw body alone: text with placeholders. With a
   * `header`: `{body}` (the raw body), `{url}` (the URL posted to: the server's public URL, the
   * path and the query as received) and `{formFields}` (the form fields sorted by name, each name
   * followed by its value), each at most once. With a `field`: payload paths, e.g.
   * `{event.event_time}{event.event_type}`. Not with `timestampHeader` (which has its own).
   */
  signedText?: string;
  /** Text before the digest in the header, e.g. "sha256=". */
  prefix?: string;
  /** How the digest is written: lower-case hex (default) or base64 (Typeform). */
  encoding?: "hex" | "base64";
  /** A delivery time inside the signed body: a signed delivery outside the tolerance is refused (a replay). */
  timestamp?: SignedTimestampSpec;
  /** The header is `key=value` parts holding a signed time and the digest (Paddle's `ts=…;h1=…`). */
  headerParts?: SignatureHeaderParts;
  /**
   * The signing time is a header of its own and part of the signed text (Slack's
   * X-Slack-Request-Timestamp, signed as `v0:{timestamp}:{body}`).
   */
  timestampHeader?: SignatureTimestampHeader;
}

export interface SignatureTimestampHeader {
  /** The header holding the signing time in Unix seconds. */
  header: string;
  /** What the HMAC covers: fixed text with `{timestamp}` (the header's value) and `{body}` (the raw body), once each. */
  signedText: string;
  /** A signed time further than this from now is refused as a replay (the service's documented tolerance). */
  toleranceSeconds: number;
}

export interface SignatureHeaderParts {
  /** Between the parts (`;`). */
  separator: string;
  /** The part holding the signing time in Unix seconds (`ts`). */
  timestamp: string;
  /** The part holding the digest (`h1`); it may appear several times while a secret is rotated. */
  signature: string;
  /** The HMAC covers `<timestamp><join><raw body>` (`:`). */
  join: string;
  /** A signed time further than this from now is refused as a replay (the service's documented tolerance). */
  toleranceSeconds: number;
}

export interface SignedTimestampSpec {
  /** Payload path of the time the service sent the delivery. */
  field: string;
  unit: "seconds" | "milliseconds";
  /** The service's documented tolerance between sending and receiving (and for clock skew). */
  toleranceSeconds: number;
}

export interface UrlOption {
  key: string;
  description: string;
  default?: string;
  /** The value is a JSON path (`$.alert.name`) into the payload; templates see the text found there. */
  jsonPath?: boolean;
  /** The only values accepted: a non-blank value outside them is a 400 naming the option, before the transform runs. */
  values?: string[];
}

/**
 * Details the payload lacks, fetched from the service's API with the bot owner's token (a URL
 * option): GET https://<host><path> for each lookup, nothing without the token. See
 * docs/writing-an-integration.md, "API lookups".
 */
export interface ApiSpec {
  /** The one host lookups may reach (over https, redirects not followed). Exactly one of host/hostOption. */
  host?: string;
  /**
   * Instead of a fixed host, the URL option naming the owner's site (`"base_url"`: Confluence
   * Server's `https://wiki.example.com/confluence`): lookups go to that https origin under its path,
   * and only to public addresses unless the operator allows more (API_LOOKUP_ALLOWED_NETWORKS/_HOSTS).
   */
  hostOption?: string;
  /** The URL option holding the token (`token`, `<service>_token`: redacted from every log). */
  tokenOption: string;
  /** The header the token is sent in, and the text before it (`"Bearer "`). */
  authHeader: string;
  authPrefix?: string;
  /** Fixed headers sent with every lookup (an API version). */
  headers?: Record<string, string>;
  /** Lookups are GETs; the field may say so, and no other method is accepted. */
  method?: "GET";
  /**
   * A field of the answer that must be `true` for the answer to be used (Slack answers
   * `{"ok": false, "error": …}` with a 200): any other value, or its absence, counts as no answer.
   */
  okField?: string;
  /**
   * View name (read in templates as `api.<name>`) → path with `{payload.path}` placeholders, each
   * URL-encoded as one path segment (before `?`) or one query value (after it:
   * `/api/users.info?user={event.user}`); a lookup whose placeholder the payload lacks is not made.
   * Also `{"path": "…", "method": "GET"}`, or a per-id lookup (`idsFrom`, `max`: one GET per id).
   */
  lookups: Record<string, string | ApiLookupSpec>;
}

export interface ApiLookupSpec {
  path: string;
  method?: "GET";
  /**
   * A per-id lookup: one GET per distinct id `pattern` (RE2, exactly one capture group) finds in
   * the payload text at `field`, the path's `{id}` filled with it; templates and the transform
   * read `api.<name>.<id>`. At most `max` ids (required with idsFrom), in the order they appear.
   */
  idsFrom?: IdsFrom;
  max?: number;
}

export interface IdsFrom {
  /** A payload path (`event.text`) declared in schema.json: a string there is searched. */
  field: string;
  /** RE2 syntax; its one capture group is the id (`<@([UW][A-Z0-9]+)>`). */
  pattern: string;
}

export interface Manifest {
  name: string;
  displayName: string;
  description: string;
  categories: string[];
  eventSource: EventSource;
  defaultTopic: string;
  events: Record<string, EventSpec>;
  /** Applies to every event (below the event's own fields and its family's). */
  eventDefaults?: InheritedSpec;
  /**
   * Specs shared by the events whose key starts with `<prefix>:` (`"issue:*"` for `issue:created`,
   * `issue:updated`…), nearest (longest prefix) first; below the event's own and dotted families'
   * fields, above eventDefaults. A family is not an event: deliveries never match it.
   */
  families?: Record<string, InheritedSpec>;
  /**
   * Lookup tables for templates (`{{table "result" status "emoji"}}`): table → row key → field →
   * text. Every row of a table has the same fields; the row `"*"` answers any other key, and
   * `{key}` in a text stands for the key looked up.
   */
  tables?: Record<string, Record<string, Record<string, string>>>;
  /**
   * View fields computed by plain-text templates, in order, after the transform: each sees the
   * payload, the transform's fields and the outputs above it (`"took": "{{durationBetween a b}}"`).
   * An output that renders empty is absent.
   */
  outputs?: Record<string, string>;
  /** Folders of integrations/_shared/ whose templates (and partials) this plugin uses as its own. */
  shared?: string[];
  unknownEvents?: "error" | "ignore";
  schema?: string;
  contentType?: ContentType;
  /**
   * The form field holding the JSON for contentType "form-json" (default "payload"); for "form", a
   * form or multipart body with this field is read as its JSON (Discord's `payload_json`).
   */
  formField?: string;
  /**
   * POST /api/v1/external/<name>/<segment> is accepted, the segment read as this URL parameter
   * (unless the query gives it): for senders that append a path (ntfy's topic, Gotify's `/message`).
   */
  pathOption?: string;
  /** contentType "text": the payload field the plain-text body goes into (default "body"). */
  textField?: string;
  /** Payload field → request headers (first present wins) it is read from when the body lacks it (ntfy's `Title`). */
  headerFields?: Record<string, string[]>;
  /** When every message renders blank: a 400 with this reason (what the sender should send) instead of a silent success. */
  nothingToShow?: string;
  /** JSON with trailing commas is accepted (senders whose published examples carry them: Microsoft Teams). */
  lenientJson?: boolean;
  /**
   * HEAD and GET on the webhook URL answer 200 (services that check the URL before saving it).
   * `{"echoQuery": "challenge"}`: a GET carrying that query parameter is answered with its value as
   * text/plain (Dropbox's verification request).
   */
  setupProbe?: boolean | { echoQuery: string };
  deliveryId?: DeliveryIdSource;
  /** View names the transform adds: template paths starting with them are not checked against the schema. */
  transformOutputs?: string[];
  signature?: SignatureSpec;
  urlOptions?: UrlOption[];
  branchPath?: string;
  transform?: string;
  docs?: string;
  /** A body that is a JSON array becomes `{ <wrapArray>: [...] }` (for services that post bare arrays). */
  wrapArray?: string;
  api?: ApiSpec;
  /**
   * A service's own signature scheme, verified outside the pure pipeline before anything is posted
   * (src/services/webhooks/awsSns.ts): "aws-sns" checks Amazon SNS's certificate-based signature and
   * reads the `auto_confirm` URL option. Templates read its results as `verification.*`.
   */
  verification?: "aws-sns";
  /** Answer fields for every event (an event's own `reply` wins field by field). */
  reply?: ReplySpec;
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
const eventMap = {
  type: "object",
  minProperties: 1,
  additionalProperties: { type: "string", minLength: 1 },
  description: "value (as a string) → event name",
} as const;
const inheritedProperties = {
  template: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9_.-]*$" },
  topic: nonEmpty,
  ignoreWhen: { type: ["string", "null"], minLength: 1 },
  schema: { type: "string", pattern: "^#/" },
  each: nonEmpty,
  branchPath: { type: ["string", "null"], minLength: 1 },
  direct: { type: "boolean" },
  directWhen: { type: ["string", "null"], minLength: 1 },
  channel: { type: ["string", "null"], minLength: 1 },
} as const;
/** An API lookup's path: absolute, an optional query, no fragment. */
const lookupPath = { type: "string", pattern: "^/[^?#]*(\\?[^#]*)?$" } as const;
// Names and reserved words are checked by the loader, which says which field is wrong.
const reply = {
  type: "object",
  minProperties: 1,
  maxProperties: MAX_WEBHOOK_REPLY_FIELDS,
  additionalProperties: { type: "string", minLength: 1, maxLength: MAX_WEBHOOK_REPLY_FIELD_CHARS },
} as const;
const actionField = {
  type: "string",
  minLength: 1,
  description: "payload path whose value is appended as `.action`",
} as const;

/** The Ajv options the manifest validator is generated with (src/tools/manifestValidator.ts). */
export const MANIFEST_VALIDATOR_OPTIONS = { allErrors: true, strict: false } as const;

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
        {
          type: "object",
          additionalProperties: false,
          required: ["header"],
          properties: {
            header: { type: "string", pattern: "^[A-Za-z0-9-]+$" },
            actionField,
            map: eventMap,
            default: { type: "string", minLength: 1 },
          },
        },
        {
          type: "object",
          additionalProperties: false,
          required: ["field"],
          properties: { field: nonEmpty, default: nonEmpty, actionField, map: eventMap },
        },
        {
          type: "object",
          additionalProperties: false,
          required: ["fixed"],
          properties: { fixed: nonEmpty, actionField },
        },
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
        properties: { ...inheritedProperties, ignore: { type: "boolean" }, reply },
      },
    },
    eventDefaults: { type: "object", additionalProperties: false, properties: inheritedProperties },
    families: {
      type: "object",
      minProperties: 1,
      propertyNames: { pattern: "^[^*]+:\\*$" },
      additionalProperties: { type: "object", additionalProperties: false, properties: inheritedProperties },
    },
    tables: {
      type: "object",
      minProperties: 1,
      propertyNames: { pattern: "^[A-Za-z][A-Za-z0-9_]*$" },
      additionalProperties: {
        type: "object",
        minProperties: 1,
        additionalProperties: {
          type: "object",
          minProperties: 1,
          propertyNames: { pattern: "^[A-Za-z][A-Za-z0-9_]*$" },
          additionalProperties: { type: "string" },
        },
      },
    },
    outputs: {
      type: "object",
      minProperties: 1,
      propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
      additionalProperties: { type: "string", minLength: 1 },
    },
    shared: {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "string", pattern: "^[a-z0-9_]+$" },
    },
    unknownEvents: { enum: ["error", "ignore"] },
    schema: nonEmpty,
    contentType: { enum: ["json", "form", "form-json", "xml", "query", "text"] },
    formField: { type: "string", pattern: "^[A-Za-z0-9_.\\[\\]-]+$" },
    textField: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    headerFields: {
      type: "object",
      propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
      additionalProperties: {
        type: "array",
        minItems: 1,
        items: { type: "string", pattern: "^[A-Za-z0-9-]+$" },
      },
    },
    lenientJson: { type: "boolean" },
    nothingToShow: nonEmpty,
    pathOption: { type: "string", pattern: "^[a-z_][a-z0-9_]*$" },
    setupProbe: {
      oneOf: [
        { type: "boolean" },
        {
          type: "object",
          additionalProperties: false,
          required: ["echoQuery"],
          properties: { echoQuery: { type: "string", pattern: "^[a-z_][a-z0-9_]*$" } },
        },
      ],
    },
    verification: { enum: ["aws-sns"] },
    reply,
    deliveryId: {
      oneOf: [
        {
          type: "object",
          additionalProperties: false,
          required: ["header"],
          properties: { header: { type: "string", pattern: "^[A-Za-z0-9-]+$" } },
        },
        { type: "object", additionalProperties: false, required: ["field"], properties: { field: nonEmpty } },
      ],
    },
    wrapArray: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
    transformOutputs: {
      type: "array",
      uniqueItems: true,
      items: { type: "string", pattern: "^[A-Za-z_$][A-Za-z0-9_$]*$" },
    },
    signature: {
      type: "object",
      additionalProperties: false,
      // Exactly one of header and field, and which placeholders signedText may use: the loader says.
      required: ["algorithm"],
      properties: {
        header: { type: "string", pattern: "^[A-Za-z0-9-]+$" },
        field: nonEmpty,
        algorithm: { enum: ["sha256", "sha1", "sha512", "token", "ecdsa-p256-sha256"] },
        signedText: nonEmpty,
        prefix: { type: "string" },
        encoding: { enum: ["hex", "base64"] },
        headerParts: {
          type: "object",
          additionalProperties: false,
          required: ["separator", "timestamp", "signature", "join", "toleranceSeconds"],
          properties: {
            separator: nonEmpty,
            timestamp: nonEmpty,
            signature: nonEmpty,
            join: { type: "string" },
            toleranceSeconds: { type: "integer", minimum: 1, maximum: 86400 },
          },
        },
        // signedText's placeholders (once each) are checked by the loader, which says what is wrong.
        timestampHeader: {
          type: "object",
          additionalProperties: false,
          required: ["header", "signedText", "toleranceSeconds"],
          properties: {
            header: { type: "string", pattern: "^[A-Za-z0-9-]+$" },
            signedText: nonEmpty,
            toleranceSeconds: { type: "integer", minimum: 1, maximum: 86400 },
          },
        },
        timestamp: {
          type: "object",
          additionalProperties: false,
          required: ["field", "unit", "toleranceSeconds"],
          properties: {
            field: nonEmpty,
            unit: { enum: ["seconds", "milliseconds"] },
            toleranceSeconds: { type: "integer", minimum: 1, maximum: 86400 },
          },
        },
      },
    },
    urlOptions: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["key", "description"],
        properties: {
          key: { type: "string", pattern: "^[a-z][A-Za-z0-9_]*$" },
          description: nonEmpty,
          default: { type: "string" },
          jsonPath: { type: "boolean" },
          values: {
            type: "array",
            minItems: 1,
            maxItems: MAX_URL_OPTION_VALUES,
            uniqueItems: true,
            items: { type: "string", pattern: "^\\S(.*\\S)?$", maxLength: 100 },
          },
        },
      },
    },
    branchPath: nonEmpty,
    transform: { type: "string", pattern: "^[A-Za-z0-9_.-]+\\.(ts|js)$" },
    docs: { type: "string", pattern: "^[A-Za-z0-9_.-]+\\.md$" },
    api: {
      type: "object",
      additionalProperties: false,
      // Exactly one of host and hostOption: the loader says so when both or neither is given.
      required: ["tokenOption", "authHeader", "lookups"],
      properties: {
        // A plain DNS name: no scheme, port, user info or path can be slipped in.
        host: { type: "string", pattern: "^[a-z0-9-]+(\\.[a-z0-9-]+)+$" },
        hostOption: { type: "string", pattern: "^[a-z][a-z0-9_]*$" },
        // Every query parameter named `…token` is redacted from logs and the delivery log.
        tokenOption: { type: "string", pattern: "^([a-z]+_)*token$" },
        authHeader: { type: "string", pattern: "^[A-Za-z0-9-]+$" },
        authPrefix: { type: "string" },
        headers: {
          type: "object",
          propertyNames: { pattern: "^[A-Za-z0-9-]+$" },
          additionalProperties: { type: "string" },
        },
        method: { enum: ["GET"] },
        okField: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
        lookups: {
          type: "object",
          minProperties: 1,
          maxProperties: MAX_API_LOOKUPS,
          propertyNames: { pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
          additionalProperties: {
            oneOf: [
              lookupPath,
              {
                type: "object",
                additionalProperties: false,
                required: ["path"],
                properties: {
                  path: lookupPath,
                  method: { enum: ["GET"] },
                  // The pattern's groups, the field and `{id}` are checked by the loader, which says what is wrong.
                  idsFrom: {
                    type: "object",
                    additionalProperties: false,
                    required: ["field", "pattern"],
                    properties: {
                      field: { type: "string", pattern: "^[A-Za-z0-9_$-]+(\\.[A-Za-z0-9_$-]+)*$" },
                      pattern: { type: "string", minLength: 1, maxLength: API_LOOKUP_MAX_PATTERN_CHARS },
                    },
                  },
                  max: { type: "integer", minimum: 1, maximum: API_LOOKUP_MAX_IDS },
                },
                dependencies: { idsFrom: ["max"], max: ["idsFrom"] },
              },
            ],
          },
        },
      },
    },
  },
} as const;
