// PATCH /users/me/subscriptions (the reference's `update-subscriptions`): add and remove in one call.
import { startTestServer, type TestServer } from "../support/harness";
import { expectError, snapshot } from "../support/subscriptionHelpers";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const activeStreamNames = async (userId: number) =>
  (
    await server
      .db("subscriptions as s")
      .join("streams as st", "st.id", "s.stream_id")
      .where({ "s.user_id": userId, "s.active": true })
      .orderBy("st.name")
      .select("st.name")
  ).map((r) => r.name);

describe("PATCH /users/me/subscriptions", () => {
  it("adds (creating a missing channel) and removes in one call through zulip-js", async () => {
    const { member } = server.users;
    const client = await zulipJs(server, member);
    const res = await client.callEndpoint("/users/me/subscriptions", "PATCH", {
      add: JSON.stringify([{ name: "patch-new", description: "Made by PATCH", color: "#e79ab5" }, { name: "general" }]),
      delete: JSON.stringify(["general"]),
    });
    expect(res).toEqual({
      result: "success",
      msg: "",
      subscribed: { [member.id]: ["patch-new"] },
      already_subscribed: { [member.id]: ["general"] },
      new_subscription_messages_sent: true,
      removed: ["general"],
      not_removed: [],
    });
    expect(await activeStreamNames(member.id)).toEqual(["patch-new"]);
    const created = await server.db("streams").where({ name_key: "patch-new" }).first();
    expect(created.description).toBe("Made by PATCH");
    const sub = await server.db("subscriptions").where({ user_id: member.id, stream_id: created.id }).first();
    expect(sub.color).toBe("#e79ab5");
  });

  it("accepts only `delete`, reporting channels the user was not subscribed to as not_removed", async () => {
    const { other } = server.users;
    await server.as(server.users.owner).post("/users/me/subscriptions", { subscriptions: [{ name: "quiet" }] });
    const res = await server.as(other).patch("/users/me/subscriptions", { delete: ["general", "quiet"] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: "success",
      msg: "",
      subscribed: {},
      already_subscribed: {},
      removed: ["general"],
      not_removed: ["quiet"],
    });
    expect(await activeStreamNames(other.id)).toEqual([]);
  });

  it("accepts only `add`", async () => {
    const { other } = server.users;
    const res = await server.as(other).patch("/users/me/subscriptions", { add: [{ name: "general" }] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subscribed: { [other.id]: ["general"] }, removed: [], not_removed: [] });
  });

  it("is one transaction: a removal that fails undoes the additions", async () => {
    const { member } = server.users;
    const before = await snapshot(server);
    const res = await server.as(member).patch("/users/me/subscriptions", {
      add: [{ name: "never-made" }],
      delete: ["no-such-channel"],
    });
    expectError(res, 400, "STREAM_DOES_NOT_EXIST", "Channel 'no-such-channel' does not exist");
    expect(await snapshot(server)).toEqual(before);
    expect(await server.db("streams").where({ name_key: "never-made" }).first()).toBeUndefined();
  });

  it("refuses a call with nothing to do", async () => {
    const res = await server.as(server.users.member).patch("/users/me/subscriptions", { add: [], delete: [] });
    expectError(res, 400, "BAD_REQUEST", 'Nothing to do. Specify at least one of "add" or "delete".');
    const none = await server.as(server.users.member).patch("/users/me/subscriptions", {});
    expectError(none, 400, "BAD_REQUEST", 'Nothing to do. Specify at least one of "add" or "delete".');
  });

  it("validates the lists like POST and DELETE do", async () => {
    const res = await server.as(server.users.member).patch("/users/me/subscriptions", { add: [{ nom: "x" }] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("BAD_REQUEST");
    const notJson = await server.as(server.users.member).patch("/users/me/subscriptions", { delete: "general" });
    expect(notJson.status).toBe(400);
  });
});
