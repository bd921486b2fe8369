// The pure webhook pipeline: (integration, request) → outcome. No database, no Koa: the route
// authenticates and delivers; everything about reading and rendering a delivery happens here.
// Order: signature → body → event → filters → schema → branches → transform → render.
import type { ErrorObject } from "ajv";
import { ApiError } from "../errors";
import {
  isBranchFilteredOut,
  isFilteredOut,
  findEvent,
  parsePatternList,
  resolveEvent,
  type ResolvedEvent,
} from "./events";
import { hasLoneSurrogate, hasNullByte } from "../text";
import { parseWebhookBody } from "./body";
import { limitMarkdown, limitTopic } from "./safeMarkdown";
import { parseJsonPath, readJsonPath, readPath } from "./paths";
import {
  MAX_JSON_PATH_LENGTH,
  MAX_JSON_PATH_SEGMENTS,
  MAX_WEBHOOK_DELIVERY_CHANNELS,
  MAX_WEBHOOK_REPLY_FIELD_CHARS,
} from "../limits";
import type { TemplateFn } from "./helpers";
import type { Integration, LoadedEvent } from "./registry";
import { verifySignature, verifySignedTimestamp } from "./signature";

export interface WebhookRequest {
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  query: Record<string, string>;
  body: Buffer;
  /** The bot's webhook secret, when one is set: deliveries must then carry the manifest's signature. */
  secret?: string | null;
  /** When the delivery arrived (ms since the epoch; default now): a signed timestamp is checked against it. */
  receivedAt?: number;
  /**
   * The URL the sender posted to (the server's public URL, the path and the raw query string as
   * received), for a signature that covers it (signedText `{url}`). Never shown or logged: it may
   * carry the bot's API key.
   */
  url?: string;
  /** What the plugin's API lookups answered (manifest `api`), by lookup name: templates read `api.<name>`. */
  api?: Record<string, unknown>;
  /** What the manifest's `verification` step found (src/services/webhooks/awsSns.ts): templates read `verification.*`. */
  verification?: Record<string, unknown>;
  /** The organization's template overrides for this integration, by event key. */
  overrides?: ReadonlyMap<string, EventOverride>;
}

/** An organization's replacement for an event's message and/or topic template (compiled like the plugin's). */
export interface EventOverride {
  template?: TemplateFn;
  topic?: TemplateFn;
  /** What they were compiled from: a render thread compiles its own copy (functions cannot cross threads). */
  sources?: { template?: string; topic?: string };
}

export interface RenderedMessage {
  topic: string;
  content: string;
  /** A direct message to the bot's owner instead of the channel (event `direct` / `directWhen`). */
  direct?: boolean;
  /** The channel (by name) it goes to instead of the URL's `stream` (event `channel`, rendered non-blank). */
  channel?: string;
}

/** Extra fields of the success answer (manifest `reply`), rendered: field → text. */
export type ReplyFields = Record<string, string>;

export type Outcome =
  | {
      kind: "messages";
      event: ResolvedEvent;
      eventKey: string;
      messages: RenderedMessage[];
      /** The sender's unique delivery id, when the manifest declares where it is. */
      deliveryId?: string;
      reply?: ReplyFields;
    }
  | {
      kind: "ignored";
      event?: ResolvedEvent;
      eventKey?: string;
      reason: "event ignored" | "filtered" | "branch filtered" | "ignoreWhen" | "empty";
      reply?: ReplyFields;
    }
  | { kind: "unsupported"; event: ResolvedEvent; reply?: ReplyFields };

/**
 * What the pipeline made of a request, or what it threw. A refused delivery keeps its event when it
 * can still be read, so the delivery log can say which event failed.
 */
export type PipelineResult = { outcome: Outcome } | { error: unknown; event?: string; eventKey?: string };

function describeSchemaError(e: ErrorObject): { pointer: string; text: string } {
  if (e.keyword === "required") {
    const pointer = `${e.instancePath}/${(e.params as { missingProperty: string }).missingProperty}`;
    return { pointer, text: `${pointer} is missing` };
  }
  const pointer = e.instancePath || "/";
  return { pointer, text: `${pointer} ${e.message ?? "is invalid"}` };
}

function checkSchema(integration: Integration, event: LoadedEvent | undefined, payload: unknown): void {
  const errors: ErrorObject[] = [];
  if (!integration.validate(payload)) errors.push(...(integration.validate.errors ?? []));
  if (event?.validate && !event.validate(payload)) errors.push(...(event.validate.errors ?? []));
  if (errors.length === 0) return;
  const described = errors.filter((e) => e.keyword !== "if").map(describeSchemaError);
  const unique = [...new Map(described.map((d) => [d.text, d])).values()].slice(0, 3);
  throw new ApiError(
    "INVALID_PAYLOAD",
    `Invalid ${integration.manifest.displayName} payload: ${unique.map((d) => d.text).join("; ")}`,
    {
      pointers: unique.map((d) => d.pointer),
    },
  );
}

export function urlOptionValues(
  integration: Integration,
  query: Record<string, string>,
  payload?: unknown,
): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const option of integration.manifest.urlOptions ?? []) {
    const raw = query[option.key] ?? option.default;
    // A fixed-values option reaches the transform as one of its values (checked), or blank.
    const given = option.values ? raw?.trim() : raw;
    values[option.key] = option.jsonPath && given !== undefined ? jsonPathValue(option.key, given, payload) : given;
  }
  return values;
}

/** A jsonPath URL option's value: the text at that path of the payload (undefined when absent). */
function jsonPathValue(key: string, path: string, payload: unknown): string | undefined {
  if (path.trim() === "") return undefined;
  const segments = parseJsonPath(path.trim());
  if (!segments)
    throw new ApiError(
      "BAD_REQUEST",
      `Invalid '${key}' option: not a field path (expected $.name, $.name[0].name or $['name'], ` +
        `at most ${MAX_JSON_PATH_LENGTH} characters and ${MAX_JSON_PATH_SEGMENTS} steps)`,
      { var_name: key },
    );
  const value = readJsonPath(payload, segments);
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : typeof value === "object" ? JSON.stringify(value) : String(value);
}

function readDeliveryId(
  manifest: Integration["manifest"],
  headers: WebhookRequest["headers"],
  payload: unknown,
): string | undefined {
  const source = manifest.deliveryId;
  if (!source) return undefined;
  const value = "header" in source ? headers[source.header.toLowerCase()] : readPath(payload, source.field);
  const text = typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "";
  return text === "" ? undefined : text.slice(0, 200);
}

/**
 * The answer's extra fields (manifest `reply`, the event's own winning field by field), rendered
 * as plain text over the payload; a field that renders empty is left out. Rendered for every
 * success answer of a known event (ignored ones too: Slack's url_verification posts nothing).
 */
function renderReply(
  integration: Integration,
  fields: [string, TemplateFn][],
  payload: unknown,
  query: Record<string, string>,
  resolved: ResolvedEvent,
  eventKey: string | undefined,
): ReplyFields | undefined {
  if (fields.length === 0) return undefined;
  const data = {
    event: resolved.event,
    action: resolved.action,
    eventType: resolved.eventType,
    eventKey,
    options: urlOptionValues(integration, query, payload),
    integration: integration.manifest.displayName,
    topicOverridden: query.topic?.trim() ? true : false,
    tables: integration.tables,
  };
  const out: ReplyFields = {};
  for (const [field, fn] of fields) {
    const text = fn(payload, data, integration.partials);
    if (text === "") continue;
    // Named and enforced: an echo of a megabyte field is not an answer any sender expects.
    if ([...text].length > MAX_WEBHOOK_REPLY_FIELD_CHARS)
      throw new ApiError(
        "INVALID_PAYLOAD",
        `Invalid ${integration.manifest.displayName} payload: the answer's '${field}' would be longer than ` +
          `${MAX_WEBHOOK_REPLY_FIELD_CHARS} characters (MAX_WEBHOOK_REPLY_FIELD_CHARS)`,
        { pointers: ["/"] },
      );
    out[field] = wellFormed(text);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A bot with a secret accepts only deliveries that prove they know it: an integration whose
 * service cannot sign is refused rather than silently unprotected (use another bot for it). A
 * `verification` scheme (Amazon SNS's certificates) proves the sender without the secret. Also run
 * before a delivery's API lookups, so an unsigned one spends none of the owner's token.
 */
export function verifyRequestSignature(
  integration: Integration,
  request: Pick<WebhookRequest, "headers" | "body" | "secret" | "receivedAt" | "url"> &
    Partial<Pick<WebhookRequest, "query">>,
  /** The payload, when it is already parsed (a digest in the payload is read from it). */
  parsed?: unknown,
): void {
  const { manifest } = integration;
  if (request.secret && !manifest.signature && !manifest.verification) {
    throw new ApiError(
      "INVALID_SIGNATURE",
      `This bot has a webhook secret, but ${manifest.displayName} deliveries cannot be signed: ` +
        "use a bot without a secret for this integration",
      { integration: integration.name },
    );
  }
  const spec = manifest.signature;
  if (!spec || !request.secret) return;
  // A digest in the body (HelloSign's event_hash) is read from the payload, parsed here when the
  // caller has not (the check before API lookups).
  const payload = spec.field === undefined ? undefined : (parsed ?? readPayload(integration, request));
  const digest = spec.field === undefined ? undefined : readPath(payload, spec.field);
  verifySignature(
    spec,
    request.secret,
    request.body,
    spec.field === undefined
      ? request.headers[(spec.header ?? "").toLowerCase()]
      : typeof digest === "string"
        ? digest
        : undefined,
    request.receivedAt ?? Date.now(),
    request.headers,
    { url: request.url, payload },
  );
}

/** The request's body as the manifest reads it (a bare array wrapped where it says so). */
function readPayload(
  integration: Integration,
  request: Pick<WebhookRequest, "headers" | "body"> & Partial<Pick<WebhookRequest, "query">>,
): unknown {
  const { manifest } = integration;
  const parsed = parseWebhookBody(
    manifest,
    request.body,
    request.headers["content-type"] ?? "",
    request.query ?? {},
    request.headers,
  );
  return Array.isArray(parsed) && manifest.wrapArray ? { [manifest.wrapArray]: parsed } : parsed;
}

/**
 * URL options with fixed `values`: a non-blank value outside them is refused, naming the option and
 * what it accepts, before the transform could guess at it. Blank counts as not given.
 */
function checkOptionValues(integration: Integration, query: Record<string, string>): void {
  for (const option of integration.manifest.urlOptions ?? []) {
    const given = query[option.key]?.trim() ?? "";
    if (!option.values || given === "" || option.values.includes(given)) continue;
    // The value given is not echoed: the allowed ones (bounded by the manifest) say enough.
    throw new ApiError(
      "BAD_REQUEST",
      `Invalid '${option.key}' option: expected one of ${option.values.map((v) => `'${v}'`).join(", ")}`,
      { var_name: option.key, values: option.values },
    );
  }
}

export function runPipeline(integration: Integration, request: WebhookRequest): Outcome {
  const read: { payload?: unknown; resolved?: ResolvedEvent } = {};
  const outcome = readAndRender(integration, request, read);
  if (read.resolved === undefined) return outcome;
  // An event the manifest does not list (unsupported, or unknownEvents "ignore") answers with the top-level fields.
  const key = outcome.kind === "unsupported" ? undefined : outcome.eventKey;
  const fields = key === undefined ? integration.reply : (integration.events.get(key)?.reply ?? []);
  const reply = renderReply(integration, fields, read.payload, request.query, read.resolved, key);
  return reply ? { ...outcome, reply } : outcome;
}

/** The pipeline up to its outcome; `read` gets the payload and event once they are known (for the answer). */
function readAndRender(
  integration: Integration,
  request: WebhookRequest,
  read: { payload?: unknown; resolved?: ResolvedEvent },
): Outcome {
  const { manifest } = integration;
  // A digest in the payload is checked once the payload is read; any other before the body is parsed.
  const digestInPayload = manifest.signature?.field !== undefined;
  if (!digestInPayload) verifyRequestSignature(integration, request);
  // Services that post a bare JSON array (updown.io) declare the field it is read into.
  const payload = readPayload(integration, request);
  if (digestInPayload) verifyRequestSignature(integration, request, payload);
  if (payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    throw new ApiError("INVALID_PAYLOAD", `Invalid ${manifest.displayName} payload: / must be a JSON object`, {
      pointers: ["/"],
    });
  }
  refuseLoneSurrogates(manifest.displayName, payload);
  // Only a verified signature makes the timestamp worth anything (an unsigned one anybody can write).
  if (manifest.signature?.timestamp && request.secret) {
    verifySignedTimestamp(
      manifest.signature.timestamp,
      manifest.displayName,
      payload,
      request.receivedAt ?? Date.now(),
    );
  }
  const resolved = resolveEvent(manifest.eventSource, request.headers, payload, manifest.displayName);
  read.payload = payload;
  read.resolved = resolved;
  const event = findEvent(integration, resolved);
  if (!event)
    return manifest.unknownEvents === "ignore"
      ? { kind: "ignored", event: resolved, reason: "event ignored" }
      : { kind: "unsupported", event: resolved };
  const ignored = (reason: Extract<Outcome, { kind: "ignored" }>["reason"]): Outcome => ({
    kind: "ignored",
    event: resolved,
    eventKey: event.key,
    reason,
  });
  if (event.spec.ignore) return ignored("event ignored");

  const only = parsePatternList("only_events", request.query.only_events);
  const exclude = parsePatternList("exclude_events", request.query.exclude_events);
  checkOptionValues(integration, request.query);
  if (isFilteredOut(resolved, only, exclude)) return ignored("filtered");

  checkSchema(integration, event, payload);

  const branchPath = event.spec.branchPath === undefined ? manifest.branchPath : event.spec.branchPath;
  if (
    branchPath &&
    isBranchFilteredOut(readPath(payload, branchPath), parsePatternList("branches", request.query.branches))
  ) {
    return ignored("branch filtered");
  }

  const options = urlOptionValues(integration, request.query, payload);
  const context = {
    event: resolved.event,
    action: resolved.action,
    options,
    ...(request.api ? { api: request.api } : {}),
  };
  const extra = integration.transform?.(payload, context) ?? {};
  const view: Record<string, unknown> = { ...(payload as Record<string, unknown>), ...extra };
  if (manifest.api) view.api = request.api ?? {};
  if (manifest.verification) view.verification = request.verification ?? {};
  const topicOverride = request.query.topic?.trim() || undefined;
  const data = {
    event: resolved.event,
    action: resolved.action,
    eventType: resolved.eventType,
    eventKey: event.key,
    options,
    integration: manifest.displayName,
    topicOverridden: topicOverride !== undefined,
    tables: integration.tables,
  };
  const render = (fn: typeof event.template, v: unknown) => (fn ? fn(v, data, integration.partials) : "");
  for (const [name, output] of integration.outputs) {
    const text = render(output, view);
    if (text === "") delete view[name];
    else view[name] = text;
  }
  const isDirect = (v: unknown) =>
    event.spec.direct === true || (event.directWhen !== undefined && render(event.directWhen, v).trim() !== "");
  if (event.ignoreWhen && render(event.ignoreWhen, view).trim() !== "") return ignored("ignoreWhen");

  const override = request.overrides?.get(event.key);
  const messageTemplate = override?.template ?? event.template;
  const topicTemplate = override?.topic ?? event.topic ?? integration.defaultTopic;
  const items = event.spec.each ? readPath(view, event.spec.each) : [view];
  const views = Array.isArray(items)
    ? items.map((item) => (item && typeof item === "object" ? { ...view, ...item, item } : { ...view, item }))
    : [];
  const messages: RenderedMessage[] = [];
  for (const v of views) {
    const content = render(messageTemplate, v)
      .trimEnd()
      .replace(/^\s*\n/, "");
    if (content.trim() === "") continue;
    // Length limits are applied as the messages leave for delivery (settlePipeline), not here.
    const topic = topicOverride ?? render(topicTemplate, v);
    refuseNullBytes(integration, "message", content);
    refuseNullBytes(integration, "topic", topic);
    const direct = isDirect(v);
    // A direct message needs no channel; blank text means the URL's `stream`.
    const channel = !direct && event.channel ? render(event.channel, v).trim() : "";
    refuseNullBytes(integration, "channel", channel);
    messages.push({
      topic: wellFormed(topic),
      content: wellFormed(content),
      ...(direct ? { direct: true } : {}),
      ...(channel !== "" ? { channel: wellFormed(channel) } : {}),
    });
  }
  const channels = new Set(messages.flatMap((m) => (m.channel === undefined ? [] : [m.channel])));
  if (channels.size > MAX_WEBHOOK_DELIVERY_CHANNELS)
    throw new ApiError(
      "INVALID_PAYLOAD",
      `Invalid ${manifest.displayName} payload: its messages name ${channels.size} channels, more than ` +
        `${MAX_WEBHOOK_DELIVERY_CHANNELS} (MAX_WEBHOOK_DELIVERY_CHANNELS)`,
      { pointers: ["/"] },
    );
  if (messages.length === 0) {
    // A sender told "nothing posted" learns why, where the service it imitates answers an error too.
    if (manifest.nothingToShow)
      throw new ApiError("INVALID_PAYLOAD", `Invalid ${manifest.displayName} payload: ${manifest.nothingToShow}`, {
        pointers: ["/"],
      });
    return ignored("empty");
  }
  const deliveryId = readDeliveryId(manifest, request.headers, payload);
  return { kind: "messages", event: resolved, eventKey: event.key, messages, ...(deliveryId ? { deliveryId } : {}) };
}

// The rules REST parameters follow (src/http/params.ts): no NUL bytes, no unpaired surrogates.

/** NUL can only come from the payload (a JSON "\u0000"), and is refused in what it renders to. */
function refuseNullBytes(integration: Integration, what: "message" | "topic" | "channel", text: string): void {
  if (!hasNullByte(text)) return;
  throw new ApiError(
    "INVALID_PAYLOAD",
    `Invalid ${integration.manifest.displayName} payload: the ${what} it renders to would contain null bytes`,
    { pointers: ["/"] },
  );
}

/**
 * An unpaired surrogate (a JSON "\ud800" escape, an XML "&#xD800;") is refused in the payload
 * itself: it is not Unicode text, and plugin code given one fails (`encodeURIComponent` throws).
 */
function refuseLoneSurrogates(displayName: string, payload: unknown): void {
  const pointer = loneSurrogateAt(payload, "");
  if (pointer === undefined) return;
  throw new ApiError(
    "INVALID_PAYLOAD",
    `Invalid ${displayName} payload: ${pointer || "/"} contains an unpaired surrogate (invalid Unicode)`,
    { pointers: [pointer || "/"] },
  );
}

/** The JSON pointer of the first string (value or key) holding an unpaired surrogate. */
function loneSurrogateAt(value: unknown, at: string): string | undefined {
  if (typeof value === "string") return hasLoneSurrogate(value) ? at : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, item] of Object.entries(value)) {
    const here = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (hasLoneSurrogate(key)) return here;
    const found = loneSurrogateAt(item, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A plugin cutting text by UTF-16 units can still split a pair: the half left becomes U+FFFD. */
const wellFormed = (text: string) => (hasLoneSurrogate(text) ? text.replace(/[\uD800-\uDFFF]/gu, "\uFFFD") : text);

/**
 * Messages as they leave for delivery, cut to the server's length limits here (on the render
 * thread), so a 4 MB message never crosses back to the event loop to be cut there.
 */
function withinLimits(outcome: Outcome): Outcome {
  if (outcome.kind !== "messages") return outcome;
  const messages = outcome.messages.map((m) => ({
    ...m,
    topic: limitTopic(m.topic),
    content: limitMarkdown(m.content),
  }));
  return { ...outcome, messages };
}

/** A refused delivery's event, when its body can still be read. */
function eventOfRefused(integration: Integration, request: WebhookRequest): { event?: string; eventKey?: string } {
  try {
    const { manifest } = integration;
    const payload = parseWebhookBody(
      manifest,
      request.body,
      request.headers["content-type"] ?? "",
      request.query,
      request.headers,
    );
    const resolved = resolveEvent(manifest.eventSource, request.headers, payload, manifest.displayName);
    return { event: resolved.eventType, eventKey: findEvent(integration, resolved)?.key };
  } catch {
    return {};
  }
}

/** runPipeline, keeping its error (and the refused delivery's event) instead of throwing. */
export function settlePipeline(integration: Integration, request: WebhookRequest): PipelineResult {
  try {
    return { outcome: withinLimits(runPipeline(integration, request)) };
  } catch (error) {
    return { error, ...eventOfRefused(integration, request) };
  }
}
