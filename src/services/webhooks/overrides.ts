// Per-organization template overrides for webhook events. Compiled like the plugin's own
// templates (same helpers, partials, auto-escaping and limits) and validated against every fixture
// of the event before they are saved. Each process caches a realm's compiled overrides; a change
// is broadcast on the event bus (over Redis: to every process), which drops the cached copies.
import path from "node:path";
import type { Db } from "../../db/knex";
import type { RealmRow, UserRow } from "../../db/rows";
import {
  deleteWebhookOverride,
  findWebhookOverride,
  listWebhookOverrides,
  upsertWebhookOverride,
  type WebhookOverrideRow,
} from "../../db/webhookOps";
import { ApiError, Errors } from "../../errors";
import type { EventBus } from "../../events/bus";
import { fixtureRequest, loadFixtureCases } from "../../webhooks/fixtures";
import { compileTemplate, templateCache } from "../../webhooks/helpers";
import { runPipeline, type EventOverride, type Outcome } from "../../webhooks/pipeline";
import type { Integration, IntegrationRegistry } from "../../webhooks/registry";
import { assertAdmin } from "../users/users";

export const MAX_TEMPLATE_LENGTH = 20_000;
export const MAX_TOPIC_TEMPLATE_LENGTH = 1_000;
const BROADCAST_KIND = "webhook_overrides_changed";

export interface OverrideView {
  integration: string;
  event_key: string;
  template: string | null;
  topic: string | null;
  updated_at: number;
  updated_by: number;
}

const view = (row: WebhookOverrideRow): OverrideView => ({
  integration: row.integration,
  event_key: row.event_key,
  template: row.template,
  topic: row.topic,
  updated_at: Math.floor(Number(row.updated_at) / 1000),
  updated_by: row.updated_by,
});

type RealmOverrides = Map<string, Map<string, EventOverride>>;

function invalidTemplate(field: string, error: string, fixture?: string): ApiError {
  const where = fixture ? ` (fixture ${fixture})` : "";
  return new ApiError("INVALID_TEMPLATE", `Invalid ${field}${where}: ${error}`, {
    field,
    error,
    ...(fixture ? { fixture } : {}),
  });
}

const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split("\n")[0].slice(0, 500);

export class WebhookOverrides {
  private readonly cache = new Map<number, Promise<RealmOverrides>>();
  /** Bumped on every change, so a load that raced a change does not cache stale rows. */
  private readonly generation = new Map<number, number>();
  /** Compiles once per distinct source (a template's compiled form has no per-realm state). */
  private readonly compile = templateCache(10_000);

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly integrations: IntegrationRegistry,
  ) {
    bus.onBroadcast((message) => {
      if (message.kind === BROADCAST_KIND && typeof message.realmId === "number") this.forget(message.realmId);
    });
  }

  private forget(realmId: number): void {
    this.generation.set(realmId, (this.generation.get(realmId) ?? 0) + 1);
    this.cache.delete(realmId);
  }

  private compileRow(row: Pick<WebhookOverrideRow, "template" | "topic">): EventOverride {
    return {
      ...(row.template ? { template: this.compile(row.template, true) } : {}),
      ...(row.topic ? { topic: this.compile(row.topic, false) } : {}),
      sources: { ...(row.template ? { template: row.template } : {}), ...(row.topic ? { topic: row.topic } : {}) },
    };
  }

  private async load(realmId: number): Promise<RealmOverrides> {
    const byIntegration: RealmOverrides = new Map();
    for (const row of await listWebhookOverrides(this.db, realmId)) {
      try {
        const events = byIntegration.get(row.integration) ?? new Map<string, EventOverride>();
        events.set(row.event_key, this.compileRow(row));
        byIntegration.set(row.integration, events);
      } catch {
        // Saved overrides compiled when saved; one that no longer does (helpers changed) is skipped.
      }
    }
    return byIntegration;
  }

  /** The realm's compiled overrides for one integration (undefined when it has none). */
  async forIntegration(realmId: number, integration: string): Promise<ReadonlyMap<string, EventOverride> | undefined> {
    let loading = this.cache.get(realmId);
    if (!loading) {
      const generation = this.generation.get(realmId) ?? 0;
      loading = this.load(realmId);
      this.cache.set(realmId, loading);
      loading.then(
        () => {
          if ((this.generation.get(realmId) ?? 0) !== generation) this.cache.delete(realmId);
        },
        () => this.cache.delete(realmId),
      );
    }
    return (await loading).get(integration);
  }

  private eventOf(integrationName: string, eventKey: string): Integration {
    const integration = this.integrations.get(integrationName);
    const event = integration?.events.get(eventKey);
    if (!integration || !event) throw Errors.notFound(`No event '${eventKey}' in integration '${integrationName}'`);
    if (event.spec.ignore) throw Errors.badRequest(`The event '${eventKey}' is ignored by the integration`);
    return integration;
  }

  async list(realm: RealmRow, integration?: string): Promise<OverrideView[]> {
    return (await listWebhookOverrides(this.db, realm.id, integration)).map(view);
  }

  async get(realm: RealmRow, integration: string, eventKey: string): Promise<OverrideView> {
    const row = await findWebhookOverride(this.db, realm.id, integration, eventKey);
    if (!row) throw Errors.notFound("No override for this event");
    return view(row);
  }

  /** Checks the sources compile and render every fixture of the event; throws INVALID_TEMPLATE otherwise. */
  validate(integration: Integration, eventKey: string, sources: { template: string | null; topic: string | null }) {
    const partials = new Set(Object.keys(integration.partials));
    const checked: EventOverride = {};
    for (const [field, source] of [
      ["template", sources.template],
      ["topic", sources.topic],
    ] as const) {
      if (!source) continue;
      for (const m of source.matchAll(/\{\{~?#?>\s*([A-Za-z0-9_-]+)/g))
        if (!partials.has(m[1])) throw invalidTemplate(field, `unknown partial '${m[1]}'`);
      // `log` writes to the server's console: not something an organization's template may do.
      if (/\{\{~?[#^]?\s*log\b/.test(source)) throw invalidTemplate(field, "the 'log' helper is not available");
      try {
        checked[field] = compileTemplate(source, { markdown: field === "template" });
      } catch (err) {
        throw invalidTemplate(field, firstLine(err));
      }
    }
    for (const fixture of loadFixtureCases(integration)) {
      const request = fixtureRequest(fixture);
      let plain: Outcome;
      try {
        plain = runPipeline(integration, request);
      } catch {
        continue; // a fixture of a refused delivery renders no template
      }
      if (!("eventKey" in plain) || plain.eventKey !== eventKey) continue;
      for (const field of ["template", "topic"] as const) {
        if (!checked[field]) continue;
        try {
          runPipeline(integration, { ...request, overrides: new Map([[eventKey, { [field]: checked[field] }]]) });
        } catch (err) {
          throw invalidTemplate(field, firstLine(err), path.basename(fixture.payloadPath));
        }
      }
    }
  }

  async set(
    realm: RealmRow,
    user: UserRow,
    integrationName: string,
    eventKey: string,
    input: { template?: string; topic?: string },
  ): Promise<OverrideView> {
    assertAdmin(user);
    const integration = this.eventOf(integrationName, eventKey);
    if (input.template === undefined && input.topic === undefined)
      throw Errors.badRequest("Give a template, a topic, or both");
    const existing = await findWebhookOverride(this.db, realm.id, integrationName, eventKey);
    const pick = (given: string | undefined, old: string | null | undefined) =>
      given === undefined ? (old ?? null) : given.trim() === "" ? null : given;
    const sources = { template: pick(input.template, existing?.template), topic: pick(input.topic, existing?.topic) };
    if (sources.template === null && sources.topic === null)
      throw Errors.badRequest("An override needs a template or a topic (use DELETE to remove it)");
    this.validate(integration, eventKey, sources);
    await upsertWebhookOverride(this.db, {
      realm_id: realm.id,
      integration: integrationName,
      event_key: eventKey,
      ...sources,
      updated_at: Date.now(),
      updated_by: user.id,
    });
    await this.changed(realm.id);
    return this.get(realm, integrationName, eventKey);
  }

  async remove(realm: RealmRow, user: UserRow, integration: string, eventKey: string): Promise<void> {
    assertAdmin(user);
    if (!(await deleteWebhookOverride(this.db, realm.id, integration, eventKey)))
      throw Errors.notFound("No override for this event");
    await this.changed(realm.id);
  }

  private async changed(realmId: number): Promise<void> {
    this.forget(realmId);
    await this.bus.broadcast({ kind: BROADCAST_KIND, realmId });
  }
}
