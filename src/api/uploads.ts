// POST /user_uploads, GET /user_uploads/{path_id}, GET /attachments, DELETE /attachments/{id}.
import { ok } from "../http/envelope";
import { parseParams } from "../http/params";
import { Errors } from "../errors";
import { listAttachments, removeAttachment, storeUpload, uploadUrl } from "../services/uploads/attachments";
import { createFileStore } from "../services/uploads/fileStore";
import { uploadedFiles } from "./uploadedFiles";
import { serveUpload } from "./userFiles";
import { actor, pathInt, type RouteKit } from "./routeKit";

export function uploadsRoutes({ router, deps, auth }: RouteKit): void {
  const store = createFileStore(deps.config.uploadsDir);
  const limit = deps.config.limits.maxUploadBytes;

  router.post("/user_uploads", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const files = uploadedFiles(ctx);
    if (files.length === 0) throw Errors.badRequest("You must specify a file to upload");
    if (files.length > 1) throw Errors.badRequest("You may only upload one file at a time");
    const [file] = files;
    if (file.size > limit) throw Errors.tooLarge("Upload", limit);
    const stored = await storeUpload(deps.db, store, {
      realm,
      user,
      tempPath: file.tempPath,
      originalName: file.originalName,
      size: file.size,
    });
    await deps.bus.publish(stored.notifications);
    const url = uploadUrl(stored.pathId);
    ok(ctx, { uri: url, url, filename: stored.fileName });
  });

  router.get("/user_uploads/{*path_id}", auth, serveUpload(deps));

  router.get("/attachments", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, await listAttachments(deps.db, realm, user));
  });

  router.delete("/attachments/:attachment_id", auth, async (ctx) => {
    const { realm, user } = actor(ctx);
    parseParams(ctx, {});
    const id = pathInt(ctx, "attachment_id");
    await deps.bus.publish(await removeAttachment(deps.db, store, realm, user, id));
    ok(ctx);
  });
}
