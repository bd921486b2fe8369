// Push device registration: APNs tokens (add / remove, every error) and register_client_device.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const tokens = (userId: number) =>
  server.db("push_device_tokens").where({ user_id: userId }).select("token", "app_id", "kind");

describe("POST/DELETE /users/me/apns_device_token", () => {
  it("stores a token per user, re-adding is idempotent, and removes it", async () => {
    const { member, other } = server.users;
    const add = await server
      .as(member)
      .post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ result: "success", msg: "" });
    expect(
      (await server.as(member).post("/users/me/apns_device_token", { token: "c0ffee", appid: "org.zulip.Zulip" }))
        .status,
    ).toBe(200);
    expect(await tokens(member.id)).toEqual([{ token: "c0ffee", app_id: "org.zulip.Zulip", kind: 1 }]);
    // Tokens belong to their user: someone else cannot remove it.
    const foreign = await server.as(other).delete("/users/me/apns_device_token", { token: "c0ffee" });
    expect(foreign.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Token does not exist" });
    const remove = await server.as(member).delete("/users/me/apns_device_token", { token: "c0ffee" });
    expect(remove.body).toEqual({ result: "success", msg: "" });
    expect(await tokens(member.id)).toEqual([]);
  });

  it.each([
    ["empty token", "POST", { token: "", appid: "org.zulip.Zulip" }, "BAD_REQUEST", "Empty or invalid length token"],
    [
      "over-long token",
      "POST",
      { token: "ab".repeat(2049), appid: "org.zulip.Zulip" },
      "BAD_REQUEST",
      "Empty or invalid length token",
    ],
    ["non-hex token", "POST", { token: "nothex!!", appid: "org.zulip.Zulip" }, "BAD_REQUEST", "Invalid APNS token"],
    ["odd-length token", "POST", { token: "abc", appid: "org.zulip.Zulip" }, "BAD_REQUEST", "Invalid APNS token"],
    ["invalid app id", "POST", { token: "c0ffee", appid: "bad app id!" }, "BAD_REQUEST", "Invalid app ID"],
    ["missing appid", "POST", { token: "c0ffee" }, "REQUEST_VARIABLE_MISSING", "Missing 'appid' argument"],
    ["missing token", "POST", { appid: "org.zulip.Zulip" }, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument"],
    ["delete empty token", "DELETE", { token: "" }, "BAD_REQUEST", "Empty or invalid length token"],
    ["delete non-hex token", "DELETE", { token: "zz" }, "BAD_REQUEST", "Invalid APNS token"],
    ["delete unknown token", "DELETE", { token: "deadbeef" }, "BAD_REQUEST", "Token does not exist"],
    ["delete missing token", "DELETE", {}, "REQUEST_VARIABLE_MISSING", "Missing 'token' argument"],
  ])("%s (%s)", async (_label, method, params, code, msg) => {
    const res = await server.as(server.users.admin).request(method, "/users/me/apns_device_token", params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code, msg });
    expect(await tokens(server.users.admin.id)).toEqual([]);
  });

  it("works through zulip-js (multipart POST, query-string DELETE)", async () => {
    const client = await zulipJs(server, server.users.owner);
    expect(
      await client.callEndpoint("/users/me/apns_device_token", "POST", { token: "c0ffee", appid: "org.zulip.Zulip" }),
    ).toEqual({ result: "success", msg: "" });
    expect(await client.callEndpoint("/users/me/apns_device_token", "DELETE", { token: "c0ffee" })).toEqual({
      result: "success",
      msg: "",
    });
    expect(await tokens(server.users.owner.id)).toEqual([]);
  });
});

describe("POST /register_client_device", () => {
  it("returns a new integer device id each time", async () => {
    const first = await server.as(server.users.member).post("/register_client_device");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ result: "success", msg: "", device_id: expect.any(Number) });
    const client = await zulipJs(server, server.users.member);
    const second = await client.callEndpoint("/register_client_device", "POST", {});
    expect(second.device_id).toBeGreaterThan(first.body.device_id);
    const rows = await server.db("client_devices").where({ user_id: server.users.member.id });
    expect(rows.map((r) => r.id).sort()).toEqual([first.body.device_id, second.device_id]);
  });
});
