// Mounts every area's routes under /api/v1. Each area module registers its own routes.
import { Router } from "@koa/router";
import type { AppDeps } from "../deps";
import { limitByIp, requireUser } from "../http/auth";
import { channelsRoutes } from "./channels";
import { eventsRoutes } from "./events";
import { messagesRoutes } from "./messages";
import type { RouteKit } from "./routeKit";
import { serverSettingsRoutes } from "./serverSettings";
import { usersRoutes } from "./users";
import { integrationsCatalogueRoutes } from "../webhooks/catalogue";
import { webhookSecretRoutes } from "../webhooks/secretRoute";
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
];

export function apiRouter(deps: AppDeps): Router {
  const router = new Router({ prefix: "/api/v1" });
  const kit: RouteKit = { router, deps, auth: requireUser(deps), open: limitByIp(deps) };
  for (const register of AREAS) register(kit);
  return router;
}
