// POST /register state the reference's clients rely on: bots in realm_users, deactivated users,
// channels left and never joined, and the webhook integrations for URL builders.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["alertmanager", "helloworld"] });
  const { owner, member } = server.users;
  // member leaves `general`; `lobby` (public) and `secret` (private) are created by the owner.
  await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "lobby" }] });
  await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], invite_only: true });
  await server.as(member).delete("/users/me/subscriptions", { subscriptions: ["general"] });
  await server.db("users").where({ id: server.users.other.id }).update({ is_active: false });
});
afterAll(async () => {
  await server.close();
});

async function register(fetchEventTypes: string[]) {
  const client = await zulipJs(server, server.users.member);
  const res = await client.queues.register({ fetch_event_types: fetchEventTypes });
  expect(res.result).toBe("success");
  return res;
}

it("realm_users includes bots (is_bot) and only active users; realm_non_active_users the others", async () => {
  const { realm_users, realm_non_active_users } = await register(["realm_user"]);
  const byId = new Map(realm_users.map((u: any) => [u.user_id, u]));
  const { bot, genericBot, other, member } = server.users;
  expect(byId.get(bot.id)).toMatchObject({ is_bot: true, email: bot.email, bot_owner_id: server.users.owner.id });
  expect(byId.get(genericBot.id)).toMatchObject({ is_bot: true });
  expect(byId.get(member.id)).toMatchObject({ is_bot: false });
  expect(byId.has(other.id)).toBe(false);
  expect(byId.has(server.realm.notification_bot_id!)).toBe(false);
  expect(realm_non_active_users.map((u: any) => [u.user_id, u.is_active])).toEqual([[other.id, false]]);
});

it("unsubscribed lists channels the user left; never_subscribed the visible ones never joined", async () => {
  const state = await register(["subscription"]);
  expect(state.subscriptions.map((s: any) => s.name)).toEqual([]);
  expect(state.unsubscribed.map((s: any) => s.name)).toEqual(["general"]);
  expect(state.unsubscribed[0]).toMatchObject({ stream_id: server.general.id, color: expect.any(String) });
  // `secret` is private: a member who never joined does not see it.
  expect(state.never_subscribed.map((s: any) => s.name)).toEqual(["lobby"]);
  expect(state.never_subscribed[0]).toMatchObject({ invite_only: false, stream_id: expect.any(Number) });
});

it("realm_url is the organization's own URL", async () => {
  const state = await register(["realm"]);
  expect(state.realm_url).toBe(server.config.externalUrl);
});

it("realm_incoming_webhook_bots lists every integration with its name, display name and URL options", async () => {
  const { realm_incoming_webhook_bots: bots } = await register(["realm_incoming_webhook_bots"]);
  expect(bots.map((b: any) => b.name)).toEqual(server.deps.integrations.names());
  const alertmanager = bots.find((b: any) => b.name === "alertmanager");
  expect(alertmanager).toMatchObject({ display_name: "Prometheus Alertmanager", config_options: [] });
  const manifest = server.deps.integrations.get("alertmanager")!.manifest;
  expect(alertmanager.url_options).toEqual(
    manifest.urlOptions!.map((o) => ({ key: o.key, label: o.description, validator: "check_string" })),
  );
  expect(alertmanager.url_options.map((o: any) => o.key)).toEqual(expect.arrayContaining(["name", "desc"]));
  const helloworld = bots.find((b: any) => b.name === "helloworld");
  expect(helloworld).toMatchObject({ display_name: "Hello World", url_options: [] });
  expect(helloworld.all_event_types).toEqual(expect.arrayContaining(["hello", "goodbye"]));
});
