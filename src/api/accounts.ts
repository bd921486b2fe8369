// POST /fetch_api_key (email + password → API key) and PATCH /settings (the password, personal settings).
import { ok } from "../http/envelope";
import { hostSubdomain } from "../http/auth";
import { P, parseParams } from "../http/params";
import { throttledPasswordCheck } from "../http/passwordThrottle";
import { ApiError } from "../errors";
import { findRealm } from "../services/realms/realms";
import { apiKeyForPassword, checkPassword } from "../services/users/credentials";
import { updateSettings } from "../services/users/settings";
import { changeUserSettings, USER_SETTING_NAMES, userSettingParams } from "../services/people/userSettings";
import type { WebSession } from "../web/session";
import { actor, type RouteKit } from "./routeKit";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function accountsRoutes({ router, deps, auth, open }: RouteKit): void {
  router.post("/fetch_api_key", open, async (ctx) => {
    const p = parseParams(ctx, { username: P.string().required(), password: P.string().required() });
    // As the reference (without LDAP): the username must be an email address.
    if (!EMAIL.test(p.username.trim()))
      throw new ApiError("BAD_REQUEST", "Enter a valid email address.", { var_name: "username" });
    const subdomain = hostSubdomain(ctx.host, deps.config.rootDomain) ?? "";
    const match = await throttledPasswordCheck(deps, ctx, p.username, async () => {
      const realm = await findRealm(deps.db, subdomain);
      if (!realm) throw new ApiError("BAD_REQUEST", "Invalid subdomain", {}, { status: 404 });
      return checkPassword(deps.db, realm, p.username.trim(), p.password);
    });
    const apiKey = await apiKeyForPassword(deps.db, match);
    ok(ctx, { api_key: apiKey, email: match.user.delivery_email, user_id: match.user.id });
  });

  router.patch("/settings", auth, async (ctx) => {
    const me = actor(ctx);
    const p = parseParams(ctx, { old_password: P.string(), new_password: P.string() }, USER_SETTING_NAMES);
    // The personal settings (services/people/userSettings.ts) are all checked before anything changes.
    const settings = userSettingParams(ctx.state.rawParams ?? {});
    const session = ctx.state.webSession as WebSession | undefined;
    await throttledPasswordCheck(
      deps,
      ctx,
      me.user.delivery_email,
      () =>
        updateSettings(
          deps.db,
          me,
          { oldPassword: p.old_password, newPassword: p.new_password },
          { currentSessionId: session?.sessionId },
        ),
      (err) => err.extra.var_name === "old_password",
    );
    await deps.bus.publish(await changeUserSettings(deps.db, me.user, settings));
    ok(ctx);
  });
}
