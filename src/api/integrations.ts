// GET /api/v1/integrations — the public catalogue, built from the plugin folders' manifests.
import { parseParams } from "../http/params";
import { ok } from "../http/envelope";
import type { Integration } from "../webhooks/registry";
import type { RouteKit } from "./routeKit";

export function catalogueEntry(integration: Integration): Record<string, unknown> {
  const m = integration.manifest;
  return {
    name: m.name,
    display_name: m.displayName,
    description: m.description,
    categories: m.categories,
    events: Object.entries(m.events)
      .filter(([key, spec]) => !spec.ignore && key !== "*")
      .map(([key]) => key),
    ignored_events: Object.entries(m.events)
      .filter(([, spec]) => spec.ignore)
      .map(([key]) => key),
    event_source:
      "header" in m.eventSource
        ? { header: m.eventSource.header }
        : "field" in m.eventSource
          ? { field: m.eventSource.field }
          : { fixed: m.eventSource.fixed },
    url_options: (m.urlOptions ?? []).map((o) => ({
      key: o.key,
      description: o.description,
      ...(o.default !== undefined ? { default: o.default } : {}),
    })),
    // Where the digest is: a header, or (HelloSign) a payload field.
    signature: m.signature
      ? m.signature.field !== undefined
        ? { field: m.signature.field, algorithm: m.signature.algorithm }
        : { header: m.signature.header, algorithm: m.signature.algorithm }
      : null,
    webhook_url: `/api/v1/external/${m.name}`,
    doc: integration.docPath,
  };
}

export function integrationsCatalogueRoutes({ router, deps, open }: RouteKit): void {
  router.get("/integrations", open, async (ctx) => {
    parseParams(ctx, {});
    ok(ctx, { integrations: deps.integrations.all().map(catalogueEntry) });
  });
}
