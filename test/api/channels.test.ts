// GET /streams, GET /streams/{id}, GET /get_stream_id: which channels each kind of user can see.
import type { ApiResponse } from "../support/client";
import { startTestServer, type TestServer } from "../support/harness";
import { expectError } from "../support/subscriptionHelpers";

let server: TestServer;
let secretId: number;
let archivedId: number;
beforeAll(async () => {
  server = await startTestServer();
  const { owner } = server.users;
  await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "secret" }], invite_only: true });
  await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "old" }] });
  secretId = (await server.db("streams").where({ name_key: "secret" }).first()).id;
  archivedId = (await server.db("streams").where({ name_key: "old" }).first()).id;
  await server.db("streams").where({ id: archivedId }).update({ is_archived: true });
});
afterAll(async () => {
  await server.close();
});

const names = (res: ApiResponse) => (res.body.streams as { name: string }[]).map((s) => s.name).sort();

describe("GET /streams", () => {
  it("shows a member the public channels but not private ones they are not in", async () => {
    const res = await server.as(server.users.member).get("/streams");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(["general"]);
  });

  it("shows a guest only the channels they are subscribed to", async () => {
    const res = await server.as(server.users.guest).get("/streams");
    expect(res.status).toBe(200);
    expect(names(res)).toEqual([]);
  });

  it("lists private and archived channels for an administrator who asks for them", async () => {
    const admin = server.as(server.users.admin);
    expect(names(await admin.get("/streams"))).toEqual(["general"]);
    expect(names(await admin.get("/streams", { include_all: true }))).toEqual(["general", "secret"]);
    expect(names(await admin.get("/streams", { include_all: true, exclude_archived: false }))).toEqual([
      "general",
      "old",
      "secret",
    ]);
  });

  it("lists the private channels a user is subscribed to", async () => {
    const res = await server.as(server.users.owner).get("/streams", { include_public: false });
    expect(names(res)).toEqual(["general", "secret"]);
  });
});

describe("GET /streams/{id} and GET /get_stream_id", () => {
  it("answers for accessible channels", async () => {
    const res = await server.as(server.users.member).get(`/streams/${server.general.id}`);
    expect(res.status).toBe(200);
    expect(res.body.stream).toMatchObject({ stream_id: server.general.id, name: "general" });
    const byName = await server.as(server.users.member).get("/get_stream_id", { stream: "General" });
    expect(byName.body).toEqual({ result: "success", msg: "", stream_id: server.general.id });
  });

  it("treats a private channel the user is not in as unknown", async () => {
    expectError(
      await server.as(server.users.member).get(`/streams/${secretId}`),
      400,
      "BAD_REQUEST",
      "Invalid channel ID",
    );
    const res = await server.as(server.users.member).get("/get_stream_id", { stream: "secret" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      result: "error",
      code: "STREAM_DOES_NOT_EXIST",
      msg: "Channel 'secret' does not exist",
    });
  });
});
