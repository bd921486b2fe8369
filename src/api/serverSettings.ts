// GET /server_settings: no authentication (a wrong key is simply not looked at).
import { ok } from "../http/envelope";
import { hostSubdomain } from "../http/auth";
import { findRealmBySubdomain } from "../db/realms";
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from "../services/serverInfo";
import { bool } from "../db/rows";
import type { RouteKit } from "./routeKit";

export function serverSettingsRoutes({ router, deps, open }: RouteKit): void {
  router.get("/server_settings", open, async (ctx) => {
    ctx.state.ignoredParams = Object.keys(ctx.state.rawParams ?? {}).filter((k) => k !== "api_key");
    const realm = await findRealmBySubdomain(deps.db, hostSubdomain(ctx.host, deps.config.rootDomain) ?? "");
    const realmUrl = realm && realm.string_id ? deps.config.externalUrl.replace("://", `://${realm.string_id}.`) : deps.config.externalUrl;
    ok(ctx, {
      authentication_methods: {
        password: false, dev: false, email: false, ldap: false, remoteuser: false, github: false, azuread: false,
        gitlab: false, apple: false, google: false, saml: false, "openid connect": false,
      },
      external_authentication_methods: [],
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_version: ZULIP_VERSION,
      zulip_merge_base: ZULIP_MERGE_BASE,
      push_notifications_enabled: false,
      is_incompatible: false,
      email_auth_enabled: false,
      require_email_format_usernames: true,
      ...(realm
        ? {
            realm_url: realmUrl,
            realm_uri: realmUrl,
            realm_name: realm.name,
            realm_icon: `${realmUrl}/static/images/logo/zulip-icon-128x128.png`,
            realm_description: realm.description,
            realm_web_public_access_enabled: bool(realm.enable_spectator_access),
          }
        : {}),
    });
  });
}
