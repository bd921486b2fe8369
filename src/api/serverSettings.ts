// GET /server_settings: no authentication (a wrong key is simply not looked at).
import { ok } from "../http/envelope";
import { hostSubdomain } from "../http/auth";
import {
  AUTHENTICATION_METHODS,
  ZULIP_FEATURE_LEVEL,
  ZULIP_MERGE_BASE,
  ZULIP_VERSION,
} from "../services/realms/serverInfo";
import { publicRealmInfo } from "../services/realms/realms";
import type { RouteKit } from "./routeKit";

export function serverSettingsRoutes({ router, deps, open }: RouteKit): void {
  router.get("/server_settings", open, async (ctx) => {
    ctx.state.ignoredParams = Object.keys(ctx.state.rawParams ?? {}).filter((k) => k !== "api_key");
    const subdomain = hostSubdomain(ctx.host, deps.config.rootDomain) ?? "";
    const realmInfo = await publicRealmInfo(deps.db, subdomain, deps.config.externalUrl);
    ok(ctx, {
      authentication_methods: AUTHENTICATION_METHODS,
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: true,
      require_email_format_usernames: true,
      ...realmInfo,
    });
  });
}
