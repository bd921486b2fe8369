// The loaded integrations: name → compiled plugin, built once at start-up (loader.ts) and
// read-only afterwards, plus per-plugin counters of unsupported events (demand signals).
import type Handlebars from "handlebars";
import type { ValidateFunction } from "ajv";
import type { Tables, TemplateFn } from "./helpers";
import type { EventSpec, Manifest } from "./manifest";
import { ApiError } from "../errors";

export interface TransformContext {
  event: string;
  action?: string;
  options: Record<string, string | undefined>;
  /**
   * What the plugin's API lookups answered (manifest `api`), by lookup name, a per-id lookup's as
   * an object by id (`api.mentionedUsers.U0…`). Absent without a token, and always in previews and
   * the fixture suite: the transform then gives what the payload alone says. The answers' shapes
   * are the service's, so read them as unknown.
   */
  api?: Readonly<Record<string, unknown>>;
}

/**
 * Optional pure per-plugin computation: payload → extra view fields for the templates. The payload
 * has passed the plugin's schema, so each transform declares its own payload type.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TransformFn = (payload: any, context: TransformContext) => Record<string, unknown>;

/**
 * A transform typed from its plugin's schema: `defineTransform<Payload, Out>(fn)`, with `Payload`
 * from the generated schema.d.ts (`npm run plugin-types`) and `Out` the view fields it adds.
 */
export function defineTransform<Payload, Out extends Record<string, unknown> = Record<string, unknown>>(
  fn: (payload: Payload, context: TransformContext) => Out,
): (payload: Payload, context: TransformContext) => Out {
  return fn;
}

/**
 * A transform refusing a payload the sender must hear about (a 400 `INVALID_PAYLOAD` whose message
 * names what was missing), where posting nothing with a 200 would hide the sender's mistake.
 */
export function refusePayload(message: string, pointer = "/"): never {
  throw new ApiError("INVALID_PAYLOAD", message, { pointers: [pointer] });
}

export interface LoadedEvent {
  key: string;
  /** The effective spec: the event's own fields plus those inherited from its family and eventDefaults. */
  spec: EventSpec;
  template?: TemplateFn;
  topic?: TemplateFn;
  ignoreWhen?: TemplateFn;
  directWhen?: TemplateFn;
  /** Where the message goes instead of the URL's `stream` (manifest `channel`), compiled as plain text. */
  channel?: TemplateFn;
  validate?: ValidateFunction;
  /** The answer's extra fields for this event (manifest `reply` merged with the event's), compiled. */
  reply: [string, TemplateFn][];
}

export interface Integration {
  name: string;
  dir: string;
  manifest: Manifest;
  events: Map<string, LoadedEvent>;
  defaultTopic: TemplateFn;
  partials: Record<string, Handlebars.TemplateDelegate>;
  /** The manifest's `outputs`, compiled (plain text), in order. */
  outputs: [string, TemplateFn][];
  /** The manifest's lookup tables, read by the `table` helper (`@tables` in a render's data). */
  tables: Tables;
  validate: ValidateFunction;
  /** The manifest's top-level `reply`, compiled: the answer's fields for an event no spec names. */
  reply: [string, TemplateFn][];
  transform?: TransformFn;
  /** Path of doc.md relative to the repository root, for the catalogue. */
  docPath: string;
  /**
   * The plugin's sample deliveries (`<dir>/fixtures/<case>.json` + `.expected.json`): read by the
   * test suite, template overrides' validation, the catalogue's test delivery and the authoring tools.
   */
  fixturesDir: string;
}

export interface IntegrationRegistry {
  get(name: string): Integration | undefined;
  names(): string[];
  all(): Integration[];
  countUnsupported(name: string): number;
  unsupportedCounts(): Record<string, number>;
}

export function createRegistry(integrations: Integration[]): IntegrationRegistry {
  const byName = new Map(integrations.map((i) => [i.name, i]));
  const unsupported = new Map<string, number>();
  return {
    get: (name) => byName.get(name),
    names: () => [...byName.keys()].sort(),
    all: () => [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)),
    countUnsupported(name) {
      const n = (unsupported.get(name) ?? 0) + 1;
      unsupported.set(name, n);
      return n;
    },
    unsupportedCounts: () => Object.fromEntries(unsupported),
  };
}

export function emptyRegistry(): IntegrationRegistry {
  return createRegistry([]);
}
