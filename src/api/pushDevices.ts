// POST / DELETE /users/me/apns_device_token (deprecated, FL 406) and POST /register_client_device.
import { P, parseParams } from "../http/params";
import { ok } from "../http/envelope";
import { addApnsToken, registerClientDevice, removeApnsToken } from "../services/users/pushDevices";
import { actor, type RouteKit } from "./routeKit";

export function pushDevicesRoutes({ router, deps, auth }: RouteKit): void {
  router.post("/users/me/apns_device_token", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { token: P.string().required(), appid: P.string().required() });
    await addApnsToken(deps.db, user, p.token, p.appid);
    ok(ctx);
  });

  router.delete("/users/me/apns_device_token", auth, async (ctx) => {
    const { user } = actor(ctx);
    const p = parseParams(ctx, { token: P.string().required() });
    await removeApnsToken(deps.db, user, p.token);
    ok(ctx);
  });

  router.post("/register_client_device", auth, async (ctx) => {
    const { user } = actor(ctx);
    parseParams(ctx, {});
    ok(ctx, { device_id: await registerClientDevice(deps.db, user) });
  });
}
