// Mounts every area's routes under /api/v1. Each area module registers its own routes.
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import { limitByIp, requireUser } from "../http/auth";
import { bodyParser } from "../http/bodyParser";
import { channelsRoutes } from "./channels";
import { eventsRoutes } from "./events";
import { messagesRoutes } from "./messages";
import type { RouteKit } from "./routeKit";
import { serverSettingsRoutes } from "./serverSettings";
import { usersRoutes } from "./users";
import { integrationsCatalogueRoutes } from "./integrations";
import { webhookSecretRoutes } from "./webhookSecret";
import { profileFieldsRoutes } from "./profileFields";
import { pushDevicesRoutes } from "./pushDevices";
import { reactionsRoutes } from "./reactions";
import { linkifiersRoutes } from "./linkifiers";
import { mutedUsersRoutes } from "./mutedUsers";
import { subscriptionsRoutes } from "./subscriptions";
import { typingRoutes } from "./typing";
import { channelFoldersRoutes } from "./channelFolders";
import { uploadsRoutes } from "./uploads";
import { realmEmojiRoutes } from "./realmEmoji";
import { invitesRoutes } from "./invites";
import { webhookOpsRoutes } from "./webhookOps";
import { accountsRoutes } from "./accounts";
import { botsRoutes } from "./bots";
import { realmRoutes } from "./realm";
import { peopleRoutes } from "./people";
import { topicsRoutes } from "./topics";

const AREAS: ((kit: RouteKit) => void)[] = [
  serverSettingsRoutes,
  messagesRoutes,
  eventsRoutes,
  channelsRoutes,
  usersRoutes,
  webhookSecretRoutes,
  integrationsCatalogueRoutes,
  profileFieldsRoutes,
  pushDevicesRoutes,
  reactionsRoutes,
  linkifiersRoutes,
  mutedUsersRoutes,
  subscriptionsRoutes,
  typingRoutes,
  channelFoldersRoutes,
  uploadsRoutes,
  realmEmojiRoutes,
  invitesRoutes,
  webhookOpsRoutes,
  accountsRoutes,
  botsRoutes,
  realmRoutes,
  peopleRoutes,
  topicsRoutes,
];

export function apiRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: "/api/v1" });
  const parseBody = bodyParser({
    maxBodyBytes: deps.config.limits.maxBodyBytes,
    maxUploadBytes: deps.config.limits.maxUploadBytes,
    uploadDir: deps.config.uploadsDir,
  });
  // Credentials (and the rate limits) come from the headers; the body is read only once they pass,
  // so a refused upload is never streamed to disk.
  const user = requireUser(deps);
  const ip = limitByIp(deps);
  const userOrWebhookBot = requireUser(deps, { allowWebhookBots: true });
  const kit: RouteKit = {
    router,
    deps,
    auth: (ctx, next) => user(ctx, () => parseBody(ctx, next)),
    authWebhookBot: (ctx, next) => userOrWebhookBot(ctx, () => parseBody(ctx, next)),
    open: (ctx, next) => ip(ctx, () => parseBody(ctx, next)),
  };
  for (const register of AREAS) register(kit);
  return router;
}
