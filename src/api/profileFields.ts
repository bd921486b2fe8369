// Custom profile fields: GET / POST / PATCH (reorder) /realm/profile_fields,
// PATCH / DELETE /realm/profile_fields/{id}, PATCH / DELETE /users/me/profile_data.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import {
  assertHuman,
  removeOwnProfileData,
  updateOwnProfileData,
  type ProfileDataItem,
} from "../services/profileFields/data";
import {
  createProfileField,
  deleteProfileFieldDefinition,
  realmProfileFields,
  reorderProfileFields,
  updateProfileFieldDefinition,
} from "../services/profileFields/fields";
import { actor, pathInt, type RouteKit } from "./routeKit";

const NAME_MAX = 40;
const HINT_MAX = 80;
const intList = () => P.json<number[]>({ type: "array", items: { type: "integer" } }, "a list of integers");
const fieldData = () => P.json<Record<string, unknown>>({ type: "object" }, "a dict");
const dataItems = P.json<ProfileDataItem[]>(
  {
    type: "array",
    items: {
      type: "object",
      required: ["id", "value"],
      additionalProperties: false,
      properties: {
        id: { type: "integer" },
        value: { anyOf: [{ type: "string" }, { type: "null" }, { type: "array", items: { type: "integer" } }] },
      },
    },
  },
  "a list of {id, value} objects",
);

export function profileFieldsRoutes({ router, deps, auth }: RouteKit): void {
  router.get("/realm/profile_fields", auth, async (ctx) => {
    const { realm } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { custom_fields: await realmProfileFields(deps.db, realm.id) });
  });

  router.post("/realm/profile_fields", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      name: P.name({ maxLength: NAME_MAX }).default(""),
      hint: P.string({ maxLength: HINT_MAX }).default(""),
      field_type: P.jsonInt().required(),
      field_data: fieldData().default({}),
      display_in_profile_summary: P.bool().default(false),
      required: P.bool().default(false),
      editable_by_user: P.bool().default(true),
    });
    const { id, notifications } = await createProfileField(deps.db, realm, user, {
      name: p.name,
      hint: p.hint,
      fieldType: p.field_type,
      fieldData: p.field_data,
      displayInProfileSummary: p.display_in_profile_summary,
      required: p.required,
      editableByUser: p.editable_by_user,
    });
    await deps.bus.publish(notifications);
    ok(ctx, { id });
  });

  router.patch("/realm/profile_fields", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, { order: intList().required() });
    await deps.bus.publish(await reorderProfileFields(deps.db, realm, user, p.order));
    ok(ctx);
  });

  router.patch("/realm/profile_fields/:field_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    const p = parseParams(ctx, {
      name: P.name({ maxLength: NAME_MAX }),
      hint: P.string({ maxLength: HINT_MAX }),
      field_data: fieldData(),
      display_in_profile_summary: P.bool(),
      required: P.bool(),
      editable_by_user: P.bool(),
    });
    const notifications = await updateProfileFieldDefinition(deps.db, realm, user, pathInt(ctx, "field_id"), {
      name: p.name,
      hint: p.hint,
      fieldData: p.field_data,
      displayInProfileSummary: p.display_in_profile_summary,
      required: p.required,
      editableByUser: p.editable_by_user,
    });
    await deps.bus.publish(notifications);
    ok(ctx);
  });

  router.delete("/realm/profile_fields/:field_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    await deps.bus.publish(await deleteProfileFieldDefinition(deps.db, realm, user, pathInt(ctx, "field_id")));
    ok(ctx);
  });

  router.patch("/users/me/profile_data", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    assertHuman(user);
    const p = parseParams(ctx, { data: dataItems.required() });
    await deps.bus.publish(await updateOwnProfileData(deps.db, realm, user, p.data));
    ok(ctx);
  });

  router.delete("/users/me/profile_data", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    assertHuman(user);
    const p = parseParams(ctx, { data: intList().required() });
    await deps.bus.publish(await removeOwnProfileData(deps.db, realm, user, p.data));
    ok(ctx);
  });
}
