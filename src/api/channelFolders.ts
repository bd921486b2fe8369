// POST /channel_folders/create, GET /channel_folders, PATCH /channel_folders (reorder),
// PATCH /channel_folders/{channel_folder_id}.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import {
  createFolder,
  listFolders,
  MAX_FOLDER_DESCRIPTION_LENGTH,
  MAX_FOLDER_NAME_LENGTH,
  reorderFolders,
  updateFolderFields,
} from "../services/channels/folders";
import { assertAdmin } from "../services/users/users";
import { actor, pathInt, type RouteKit } from "./routeKit";

const INT_LIST = { type: "array", items: { type: "integer" } };

export function channelFoldersRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/channel_folders/create", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    // Folder changes are for administrators, checked before the parameters as the reference does.
    assertAdmin(user);
    const p = parseParams(ctx, {
      name: P.name({ maxLength: MAX_FOLDER_NAME_LENGTH }).required(),
      description: P.string({ maxLength: MAX_FOLDER_DESCRIPTION_LENGTH }).required(),
    });
    const { id, notifications } = await createFolder(deps.db, realm, user, p);
    await deps.bus.publish(notifications);
    ok(ctx, { channel_folder_id: id });
  });

  router.get("/channel_folders", auth, async (ctx) => {
    const { realm } = actor(ctx);
    const p = parseParams(ctx, { include_archived: P.bool().default(false) });
    ok(ctx, { channel_folders: await listFolders(deps.db, realm, p.include_archived) });
  });

  router.patch("/channel_folders", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    assertAdmin(user);
    const p = parseParams(ctx, { order: P.json<number[]>(INT_LIST, "a list of integers").required() });
    await deps.bus.publish(await reorderFolders(deps.db, realm, user, p.order));
    ok(ctx);
  });

  router.patch("/channel_folders/:channel_folder_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    assertAdmin(user);
    const id = pathInt(ctx, "channel_folder_id");
    const p = parseParams(ctx, {
      name: P.name({ maxLength: MAX_FOLDER_NAME_LENGTH }),
      description: P.string({ maxLength: MAX_FOLDER_DESCRIPTION_LENGTH }),
      is_archived: P.bool(),
    });
    await deps.bus.publish(await updateFolderFields(deps.db, realm, user, id, p));
    ok(ctx);
  });
}
