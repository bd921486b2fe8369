// The organization's default icon, which GET /server_settings and POST /register point to as
// `realm_icon`: a public PNG shipped with the server (there is no icon upload yet).
import fs from "node:fs";
import path from "node:path";
import { Router } from "@koa/router";
import { DEFAULT_REALM_ICON_PATH } from "../services/realms/realms";

const ICON = fs.readFileSync(path.join(__dirname, "assets", "realm-icon.png"));

export function realmIconRouter(): Router {
  const router = new Router();
  router.get(DEFAULT_REALM_ICON_PATH, (ctx) => {
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.type = "image/png";
    ctx.body = ICON;
  });
  return router;
}
