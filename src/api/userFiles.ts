// Serving stored files: uploads at /user_uploads/<path_id> (the bare path message links use, and
// under /api/v1), authenticated and limited to users allowed to see the file; custom emoji images
// at /user_avatars/<realm_id>/emoji/images/<file>, public like the reference's.
import fs from "node:fs";
import path from "node:path";
import type { Context, Next } from "koa";
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import { limitByIp, requireUser } from "../http/auth";
import { parseParams } from "../http/params";
import { Errors } from "../errors";
import { openUpload } from "../services/uploads/attachments";
import { createFileStore } from "../services/uploads/fileStore";
import { actor } from "./routeKit";
import { currentSession, loginUrl } from "../web/session";

// Only these are shown inline; anything else is a download, so uploaded HTML/SVG never runs here.
const INLINE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".txt": "text/plain; charset=utf-8",
};

/** Decoded path segments after `marker` in the raw request path, or undefined if malformed. */
export function pathAfter(ctx: Context, marker: string): string | undefined {
  const index = ctx.path.indexOf(marker);
  if (index === -1) return undefined;
  try {
    return ctx.path
      .slice(index + marker.length)
      .split("/")
      .map(decodeURIComponent)
      .join("/");
  } catch {
    return undefined;
  }
}

export function sendStoredFile(
  ctx: Context,
  file: { absolutePath: string; size: number },
  downloadName: string,
  cache = "private, max-age=86400",
): void {
  const type = INLINE_TYPES[path.extname(downloadName).toLowerCase()];
  const disposition = type ? "inline" : "attachment";
  ctx.set("Content-Disposition", `${disposition}; filename*=UTF-8''${encodeURIComponent(downloadName)}`);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Content-Security-Policy", "default-src 'none'; sandbox");
  ctx.set("Cache-Control", cache);
  ctx.type = type ?? "application/octet-stream";
  ctx.length = file.size;
  ctx.body = fs.createReadStream(file.absolutePath);
}

/** GET handler for /user_uploads/<path_id> (both mount points). */
export function serveUpload(deps: AppDeps) {
  const store = createFileStore(deps.config.uploadsDir);
  return async (ctx: Context): Promise<void> => {
    const { user } = actor(ctx);
    parseParams(ctx, {});
    const pathId = pathAfter(ctx, "/user_uploads/");
    if (!pathId) throw Errors.notFound("File not found");
    const file = await openUpload(deps.db, store, user, pathId);
    sendStoredFile(ctx, file, file.fileName);
  };
}

/**
 * A browser opening an upload link while signed out is sent to /login/ and back to the file: the
 * session cookie then opens it (a 401 no longer makes browsers prompt for, and cache, Basic credentials).
 */
function signInBrowsers(deps: AppDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const navigating = ctx.get("sec-fetch-mode") === "navigate" || /\btext\/html\b/.test(ctx.get("accept"));
    if (navigating && !ctx.get("authorization") && !(await currentSession(ctx, deps))) {
      ctx.redirect(loginUrl(ctx.originalUrl));
      return;
    }
    await next();
  };
}

export function userFilesRouter(deps: AppDeps): Router {
  const router = new Router();
  const store = createFileStore(deps.config.uploadsDir);
  router.get("/user_uploads/{*path_id}", signInBrowsers(deps), requireUser(deps), serveUpload(deps));
  router.get("/user_avatars/:realm_id/emoji/images/{*file}", limitByIp(deps), async (ctx) => {
    const realmId = ctx.params.realm_id;
    const name = pathAfter(ctx, "/emoji/images/");
    const file =
      /^\d+$/.test(realmId) && name ? await store.get(`user_avatars/${realmId}/emoji/images/${name}`) : undefined;
    if (!file) throw Errors.notFound("File not found");
    sendStoredFile(ctx, file, path.basename(name!), "public, max-age=86400");
  });
  return router;
}
