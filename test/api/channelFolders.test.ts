// Channel folders: create, list, update, archive, reorder, events, register state, folder_id on channels.
import { startTestServer, type TestServer, type TestUser } from "../support/harness";
import type { ApiResponse } from "../support/client";
import { expectError, snapshot } from "../support/subscriptionHelpers";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const create = (params: Record<string, unknown>, user: TestUser = server.users.admin) =>
  server.as(user).post("/channel_folders/create", params);
const folderRow = (id: number) => server.db("channel_folders").where({ id }).first();

async function refused(run: () => Promise<ApiResponse>, status: number, code: string, msg: string): Promise<void> {
  const before = await snapshot(server);
  const rows = await server.db("channel_folders").orderBy("id");
  expectError(await run(), status, code, msg);
  expect(await snapshot(server)).toEqual(before);
  expect(await server.db("channel_folders").orderBy("id")).toEqual(rows);
}

describe("POST /channel_folders/create", () => {
  it("creates a folder, sends a channel_folder add event and returns its id", async () => {
    const { admin, member } = server.users;
    const queue = (await server.as(member).post("/register", { event_types: ["channel_folder"] })).body.queue_id;
    const res = await create({ name: " Frontend ", description: "Channels for **frontend**" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", channel_folder_id: expect.any(Number) });
    const row = await folderRow(res.body.channel_folder_id);
    expect(row).toMatchObject({
      name: "Frontend",
      description: "Channels for **frontend**",
      creator_id: admin.id,
      sort_order: 0,
    });
    expect(row.rendered_description).toBe("<p>Channels for <strong>frontend</strong></p>");
    const events = (await server.as(member).get("/events", { queue_id: queue, last_event_id: -1, dont_block: true }))
      .body.events;
    expect(events).toEqual([
      {
        id: 0,
        type: "channel_folder",
        op: "add",
        channel_folder: {
          id: res.body.channel_folder_id,
          name: "Frontend",
          order: 0,
          date_created: expect.any(Number),
          creator_id: admin.id,
          description: "Channels for **frontend**",
          rendered_description: "<p>Channels for <strong>frontend</strong></p>",
          is_archived: false,
        },
      },
    ]);
    expect((await create({ name: "Backend", description: "" })).status).toBe(200);
  });

  it("is for administrators only", async () => {
    await refused(
      () => create({ name: "Mine", description: "" }, server.users.member),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await refused(
      () => create({ name: "Mine", description: "" }, server.users.moderator),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
  });

  it("validates name and description", async () => {
    await refused(() => create({ description: "" }), 400, "REQUEST_VARIABLE_MISSING", "Missing 'name' argument");
    await refused(
      () => create({ name: "NoDescription" }),
      400,
      "REQUEST_VARIABLE_MISSING",
      "Missing 'description' argument",
    );
    await refused(
      () => create({ name: "  ", description: "" }),
      400,
      "BAD_REQUEST",
      "Channel folder name can't be empty.",
    );
    await refused(
      () => create({ name: "n".repeat(61), description: "" }),
      400,
      "BAD_REQUEST",
      "name is too long (limit: 60 characters)",
    );
    await refused(
      () => create({ name: "ok", description: "d".repeat(1025) }),
      400,
      "BAD_REQUEST",
      "description is too long (limit: 1024 characters)",
    );
    await refused(
      () => create({ name: "tab\there", description: "" }),
      400,
      "BAD_REQUEST",
      "Invalid character in channel folder name, at position 4.",
    );
    await refused(
      () => create({ name: "FRONTEND", description: "" }),
      400,
      "BAD_REQUEST",
      "Channel folder name already in use",
    );
  });
});

describe("GET / PATCH /channel_folders", () => {
  it("updates name and description with one update event each, and archives empty folders", async () => {
    const { owner, member } = server.users;
    const id = (await create({ name: "Design", description: "" })).body.channel_folder_id;
    const queue = (await server.as(member).post("/register", { event_types: ["channel_folder"] })).body.queue_id;
    const res = await server.as(owner).patch(`/channel_folders/${id}`, { name: "UX", description: "All *UX*" });
    expect(res.status).toBe(200);
    expect(await folderRow(id)).toMatchObject({
      name: "UX",
      description: "All *UX*",
      rendered_description: "<p>All <em>UX</em></p>",
    });
    const events = (await server.as(member).get("/events", { queue_id: queue, last_event_id: -1, dont_block: true }))
      .body.events;
    expect(events.map(({ id: _i, ...e }: Record<string, unknown>) => e)).toEqual([
      { type: "channel_folder", op: "update", channel_folder_id: id, data: { name: "UX" } },
      {
        type: "channel_folder",
        op: "update",
        channel_folder_id: id,
        data: { description: "All *UX*", rendered_description: "<p>All <em>UX</em></p>" },
      },
    ]);

    // A folder holding an active channel cannot be archived.
    await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "ux-chat" }], folder_id: id });
    expect((await server.db("streams").where({ name_key: "ux-chat" }).first()).folder_id).toBe(id);
    await refused(
      () => server.as(owner).patch(`/channel_folders/${id}`, { is_archived: true }),
      400,
      "BAD_REQUEST",
      "You need to remove all the channels from this folder to archive it.",
    );
    await server.db("streams").where({ name_key: "ux-chat" }).update({ folder_id: null });
    expect((await server.as(owner).patch(`/channel_folders/${id}`, { is_archived: true })).status).toBe(200);
    expect(Boolean((await folderRow(id)).is_archived)).toBe(true);

    const listed = await server.as(member).get("/channel_folders");
    expect(listed.body.channel_folders.map((f: { name: string }) => f.name)).toEqual(["Frontend", "Backend"]);
    const all = await server.as(member).get("/channel_folders", { include_archived: "true" });
    expect(
      all.body.channel_folders.map((f: { name: string; is_archived: boolean }) => [f.name, f.is_archived]),
    ).toEqual([
      ["Frontend", false],
      ["Backend", false],
      ["UX", true],
    ]);

    // Archived names are free again; unarchiving a clash is refused.
    const again = await create({ name: "ux", description: "" });
    expect(again.status).toBe(200);
    await refused(
      () => server.as(owner).patch(`/channel_folders/${id}`, { is_archived: false }),
      400,
      "BAD_REQUEST",
      "Channel folder name already in use",
    );
  });

  it("refuses bad updates", async () => {
    const first = (await server.as(server.users.member).get("/channel_folders")).body.channel_folders[0].id;
    await refused(
      () => server.as(server.users.admin).patch("/channel_folders/99999", { name: "x" }),
      400,
      "BAD_REQUEST",
      "Invalid channel folder ID",
    );
    await refused(
      () => server.as(server.users.member).patch(`/channel_folders/${first}`, { name: "x" }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    await refused(
      () => server.as(server.users.admin).patch(`/channel_folders/${first}`, { name: "Backend" }),
      400,
      "BAD_REQUEST",
      "Channel folder name already in use",
    );
    await refused(
      () => server.as(server.users.admin).patch(`/channel_folders/${first}`, { is_archived: "perhaps" }),
      400,
      "BAD_REQUEST",
      "is_archived is not a boolean",
    );
  });

  it("reorders folders when given every id exactly once", async () => {
    const { admin, member } = server.users;
    const ids = (await server.as(admin).get("/channel_folders", { include_archived: "true" })).body.channel_folders.map(
      (f: { id: number }) => f.id,
    );
    const reversed = [...ids].reverse();
    await refused(
      () => server.as(admin).patch("/channel_folders", { order: reversed.slice(1) }),
      400,
      "BAD_REQUEST",
      "Invalid order mapping",
    );
    await refused(
      () => server.as(admin).patch("/channel_folders", { order: [...reversed.slice(1), reversed[1]] }),
      400,
      "BAD_REQUEST",
      "Invalid order mapping",
    );
    await refused(
      () => server.as(admin).patch("/channel_folders", { order: "[1,2" }),
      400,
      "BAD_REQUEST",
      'Argument "order" is not valid JSON.',
    );
    await refused(
      () => server.as(member).patch("/channel_folders", { order: reversed }),
      400,
      "UNAUTHORIZED_PRINCIPAL",
      "Must be an organization administrator",
    );
    expect((await server.as(admin).patch("/channel_folders", { order: reversed })).status).toBe(200);
    const listed = (await server.as(admin).get("/channel_folders", { include_archived: "true" })).body.channel_folders;
    expect(listed.map((f: { id: number }) => f.id)).toEqual(reversed);
    expect(listed.map((f: { order: number }) => f.order)).toEqual(reversed.map((_: number, i: number) => i));
  });

  it("is part of the POST /register state", async () => {
    const res = await server.as(server.users.member).post("/register", { fetch_event_types: ["channel_folders"] });
    expect(res.body.channel_folders.length).toBe((await server.db("channel_folders")).length);
    expect(res.body.channel_folders[0]).toHaveProperty("order", 0);
  });
});
