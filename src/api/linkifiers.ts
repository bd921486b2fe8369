// Linkifiers: POST /realm/filters, PATCH / DELETE /realm/filters/{id}, GET / PATCH /realm/linkifiers,
// and the legacy GET /realm/filters (tuples) that older clients such as zulip-js still call.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import {
  addLinkifier,
  editLinkifier,
  realmLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
} from "../services/linkifiers/linkifiers";
import type { LinkifierDefinition } from "../services/linkifiers/rules";
import { actor, pathInt, type Context, type RouteKit } from "./routeKit";

const MAX_PATTERN_LENGTH = 1000;
const MAX_URL_TEMPLATE_LENGTH = 1024;

/** POST and PATCH take the same fields; an empty example_input / reverse_template means null. */
function definitionParams(ctx: Context): LinkifierDefinition {
  const p = parseParams(ctx, {
    pattern: P.string({ maxLength: MAX_PATTERN_LENGTH }).required(),
    url_template: P.string({ maxLength: MAX_URL_TEMPLATE_LENGTH }).required(),
    example_input: P.string({ maxLength: MAX_PATTERN_LENGTH }),
    reverse_template: P.string({ maxLength: MAX_URL_TEMPLATE_LENGTH }),
    alternative_url_templates: P.json<string[]>(
      { type: "array", items: { type: "string", maxLength: MAX_URL_TEMPLATE_LENGTH } },
      "a list of strings",
    ).default([]),
  });
  return {
    pattern: p.pattern,
    urlTemplate: p.url_template,
    exampleInput: p.example_input ? p.example_input : null,
    reverseTemplate: p.reverse_template ? p.reverse_template : null,
    alternativeUrlTemplates: p.alternative_url_templates,
  };
}

export function linkifiersRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/realm/linkifiers", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { linkifiers: await realmLinkifiers(deps.db, realm.id) });
  });

  router.get("/realm/filters", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    const filters = (await realmLinkifiers(deps.db, realm.id)).map((l) => [l.pattern, l.url_template, l.id]);
    ok(ctx, { filters });
  });

  router.patch("/realm/linkifiers", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      ordered_linkifier_ids: P.json<number[]>(
        { type: "array", items: { type: "integer" } },
        "a list of integers",
      ).required(),
    });
    await deps.bus.publish(await reorderLinkifiers(deps.db, realm, user, p.ordered_linkifier_ids));
    ok(ctx);
  });

  router.post("/realm/filters", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const { id, notifications } = await addLinkifier(deps.db, realm, user, definitionParams(ctx));
    await deps.bus.publish(notifications);
    ok(ctx, { id });
  });

  router.patch("/realm/filters/:filter_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const id = pathInt(ctx, "filter_id");
    await deps.bus.publish(await editLinkifier(deps.db, realm, user, id, definitionParams(ctx)));
    ok(ctx);
  });

  router.delete("/realm/filters/:filter_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await removeLinkifier(deps.db, realm, user, pathInt(ctx, "filter_id")));
    ok(ctx);
  });
}
