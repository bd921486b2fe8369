// File uploads and attachments through the real app: storing, serving with access rules, listing,
// deletion, message links, and that refused uploads leave nothing on disk.
import fs from "node:fs";
import path from "node:path";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { insertChannel } from "../../src/services/channels/channels";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

function authHeader(user: TestUser): string {
  return "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");
}

async function upload(
  srv: TestServer,
  user: TestUser | undefined,
  files: { field: string; name: string; data: Buffer | string }[],
  url = "/api/v1/user_uploads",
) {
  const form = new FormData();
  for (const f of files) form.append(f.field, new Blob([f.data]), f.name);
  const res = await fetch(srv.url + url, {
    method: "POST",
    body: form,
    headers: user ? { authorization: authHeader(user) } : {},
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function getRaw(srv: TestServer, user: TestUser | undefined, url: string) {
  const res = await fetch(srv.url + url, { headers: user ? { authorization: authHeader(user) } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every file under the uploads directory (temp files sit at its top level, stored ones under store/). */
export function filesOnDisk(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? (e as any).path, e.name));
}

async function lastMessageId(): Promise<number> {
  const [row] = await server.db("messages").max({ id: "id" });
  return Number(row.id);
}

async function counts() {
  const [a] = await server.db("attachments").count({ n: "*" });
  const [l] = await server.db("attachment_messages").count({ n: "*" });
  return { attachments: Number(a.n), links: Number(l.n) };
}

describe("POST /user_uploads", () => {
  it("stores the file, answers with uri/url/filename, and leaves no temp file", async () => {
    const { member } = server.users;
    const res = await upload(server, member, [
      { field: "file", name: "Report final (v2).txt", data: "hello attachments" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", msg: "", filename: "Report final (v2).txt" });
    expect(res.body.uri).toMatch(
      new RegExp(`^/user_uploads/${server.realm.id}/[A-Za-z0-9_-]{24}/Report-final-v2\\.txt$`),
    );
    expect(res.body.url).toBe(res.body.uri);
    const pathId = res.body.uri.replace("/user_uploads/", "");
    const row = await server.db("attachments").where({ path_id: pathId }).first();
    expect(row).toMatchObject({ owner_id: member.id, realm_id: server.realm.id, file_name: "Report final (v2).txt" });
    expect(Number(row.size)).toBe(17);
    const onDisk = filesOnDisk(server.config.uploadsDir);
    expect(onDisk).toEqual([path.join(server.config.uploadsDir, "store", "user_uploads", ...pathId.split("/"))]);
    expect(fs.readFileSync(onDisk[0], "utf8")).toBe("hello attachments");

    // Served to the uploader under /api/v1 and at the bare path messages link to.
    for (const url of [`/api/v1${res.body.uri}`, res.body.uri]) {
      const got = await getRaw(server, member, url);
      expect(got.status).toBe(200);
      expect(got.bytes.toString()).toBe("hello attachments");
      expect(got.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("accepts the file under any field name (as the Python client sends it) and serves unknown types as downloads", async () => {
    const res = await upload(server, server.users.owner, [
      { field: "/tmp/some/path/page.html", name: "page.html", data: "<script>alert(1)</script>" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe("page.html");
    const got = await getRaw(server, server.users.owner, res.body.uri);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(got.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''page.html");
  });

  it("refuses a request without a file, or with two files", async () => {
    const before = await counts();
    const none = await server.as(server.users.member).post("/user_uploads", { note: "x" });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg: "You must specify a file to upload" });
    const two = await upload(server, server.users.member, [
      { field: "a", name: "a.txt", data: "A" },
      { field: "b", name: "b.txt", data: "B" },
    ]);
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({
      result: "error",
      code: "BAD_REQUEST",
      msg: "You may only upload one file at a time",
    });
    expect(await counts()).toEqual(before);
    expect(filesOnDisk(server.config.uploadsDir).filter((f) => !f.includes(`${path.sep}store${path.sep}`))).toEqual([]);
  });

  it("refuses unauthenticated uploads and deletes the temp file", async () => {
    const before = filesOnDisk(server.config.uploadsDir);
    const res = await upload(server, undefined, [{ field: "file", name: "x.txt", data: "sneaky" }]);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: "UNAUTHORIZED",
      msg: "Not logged in: API authentication or user session required",
    });
    expect(filesOnDisk(server.config.uploadsDir)).toEqual(before);
  });
});

describe("upload size limit", () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ MAX_UPLOAD_BYTES: "2048" });
  });
  afterAll(async () => {
    await small.close();
  });

  it("refuses an upload over the limit with nothing left on disk", async () => {
    const res = await upload(small, small.users.member, [
      { field: "file", name: "big.bin", data: Buffer.alloc(64 * 1024, 7) },
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      result: "error",
      code: "REQUEST_TOO_LARGE",
      msg: "Upload is too large: the limit is 2048 bytes",
    });
    expect(filesOnDisk(small.config.uploadsDir)).toEqual([]); // deleted before the response went out
    const [row] = await small.db("attachments").count({ n: "*" });
    expect(Number(row.n)).toBe(0);
  });

  it("accepts a file exactly at the limit", async () => {
    const res = await upload(small, small.users.member, [
      { field: "file", name: "edge.bin", data: Buffer.alloc(2048, 1) },
    ]);
    expect(res.status).toBe(200);
  });
});

describe("who may read an upload, and GET /attachments", () => {
  it("serves the file to recipients of a message linking it, and to subscribers of its channel", async () => {
    const { member, other, guest, moderator, admin } = server.users;
    const up = await upload(server, member, [{ field: "file", name: "plan.txt", data: "the plan" }]);
    const uri: string = up.body.uri;

    for (const user of [other, guest]) {
      const denied = await getRaw(server, user, uri);
      expect(denied.status).toBe(403);
      expect(JSON.parse(denied.bytes.toString())).toMatchObject({
        result: "error",
        code: "BAD_REQUEST",
        msg: "You are not authorized to view this file.",
      });
    }

    const dm = await server
      .as(member)
      .post("/messages", { type: "direct", to: [guest.id], content: `see [plan.txt](${uri})` });
    expect(dm.status).toBe(200);
    expect((await getRaw(server, guest, uri)).status).toBe(200);
    expect((await getRaw(server, other, uri)).status).toBe(403);

    const sent = await server
      .as(member)
      .post("/messages", { type: "stream", to: "general", topic: "files", content: `[plan.txt](${uri})` });
    expect(sent.status).toBe(200);
    expect((await getRaw(server, other, uri)).status).toBe(200); // subscribed to general
    // Subscribing later still grants access: the message is in a channel the user is in.
    await server.db("subscriptions").insert({ user_id: moderator.id, stream_id: server.general.id, active: true });
    expect((await getRaw(server, moderator, uri)).status).toBe(200);

    // A message by someone else linking the file also counts towards its message_ids.
    const relink = await server
      .as(admin)
      .post("/messages", { type: "stream", to: "general", topic: "files", content: `again: ${server.url}${uri}` });
    const list = await server.as(member).get("/attachments");
    expect(list.status).toBe(200);
    const entry = list.body.attachments.find((a: { path_id: string }) => `/user_uploads/${a.path_id}` === uri);
    expect(entry).toEqual({
      id: expect.any(Number),
      name: "plan.txt",
      path_id: uri.replace("/user_uploads/", ""),
      size: 8,
      create_time: expect.any(Number),
      message_ids: [dm.body.id, sent.body.id, relink.body.id],
    });
    expect(Math.abs(entry.create_time - Date.now() / 1000)).toBeLessThan(60);
    const total = await server.db("attachments").where({ realm_id: server.realm.id }).sum({ s: "size" });
    expect(list.body.upload_space_used).toBe(Number(total[0].s));
    // Other users' files are not listed.
    expect((await server.as(other).get("/attachments")).body.attachments).toEqual([]);
  });

  it("does not let a sender link a file they cannot see", async () => {
    const { member, other } = server.users;
    const up = await upload(server, member, [{ field: "file", name: "secret.txt", data: "secret" }]);
    const leak = await server
      .as(other)
      .post("/messages", { type: "stream", to: "general", topic: "leak", content: `[x](${up.body.uri})` });
    expect(leak.status).toBe(200);
    expect(await server.db("attachment_messages").where({ message_id: leak.body.id })).toEqual([]);
    expect((await getRaw(server, server.users.admin, up.body.uri)).status).toBe(403);
  });

  it("refuses a later subscriber the files of a channel whose history is not shared, as it refuses the message", async () => {
    const { owner, member, other, moderator } = server.users;
    const secret = await insertChannel(server.db, server.realm, owner, {
      name: "protected-history",
      invite_only: true,
      history_public_to_subscribers: false,
    });
    await upsertSubscriptions(
      server.db,
      [owner, member].map((u) => ({ user_id: u.id, stream_id: secret.id })),
    );
    const up = await upload(server, member, [{ field: "file", name: "minutes.txt", data: "before you came" }]);
    const sent = await server
      .as(member)
      .post("/messages", { type: "stream", to: secret.id, topic: "files", content: `[minutes](${up.body.uri})` });
    expect(sent.status).toBe(200);
    expect((await getRaw(server, owner, up.body.uri)).status).toBe(200); // received it
    expect((await getRaw(server, member, up.body.uri)).status).toBe(200); // the uploader

    await upsertSubscriptions(server.db, [{ user_id: other.id, stream_id: secret.id }]);
    expect((await server.as(other).get(`/messages/${sent.body.id}`)).status).toBe(400);
    const denied = await getRaw(server, other, up.body.uri);
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.bytes.toString())).toMatchObject({ msg: "You are not authorized to view this file." });

    // What the later subscriber receives links the file for them.
    const again = await server
      .as(owner)
      .post("/messages", { type: "stream", to: secret.id, topic: "files", content: `again ${up.body.uri}` });
    expect(again.status).toBe(200);
    expect((await getRaw(server, other, up.body.uri)).status).toBe(200);
    // A shared-history channel's files go with its messages: a member who may read them may read the file.
    const shared = await insertChannel(server.db, server.realm, owner, { name: "shared-history" });
    await upsertSubscriptions(server.db, [{ user_id: owner.id, stream_id: shared.id }]);
    const up2 = await upload(server, owner, [{ field: "file", name: "open.txt", data: "open" }]);
    await server.as(owner).post("/messages", { type: "stream", to: shared.id, topic: "t", content: up2.body.uri });
    expect((await server.as(moderator).get("/messages/" + (await lastMessageId()))).status).toBe(200);
    expect((await getRaw(server, moderator, up2.body.uri)).status).toBe(200);
    expect((await getRaw(server, server.users.guest, up2.body.uri)).status).toBe(403);
  });

  it("answers 404 for unknown paths and 401 without credentials", async () => {
    const missing = await getRaw(
      server,
      server.users.member,
      `/user_uploads/${server.realm.id}/abcdefghijklmnopqrstuvwx/nope.txt`,
    );
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.bytes.toString())).toMatchObject({
      result: "error",
      code: "NOT_FOUND",
      msg: "File not found",
    });
    const traversal = await getRaw(server, server.users.member, `/user_uploads/..%2F..%2Fetc/passwd`);
    expect(traversal.status).toBe(404);
    const anonymous = await getRaw(
      server,
      undefined,
      `/user_uploads/${server.realm.id}/abcdefghijklmnopqrstuvwx/nope.txt`,
    );
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.bytes.toString())).toMatchObject({
      code: "UNAUTHORIZED",
      msg: "Not logged in: API authentication or user session required",
    });
  });
});

describe("DELETE /attachments/{id}", () => {
  it("lets only the owner delete, removing row, links and file", async () => {
    const { member, other } = server.users;
    const up = await upload(server, member, [{ field: "file", name: "gone.txt", data: "bye" }]);
    const pathId = up.body.uri.replace("/user_uploads/", "");
    const sent = await server
      .as(member)
      .post("/messages", { type: "stream", to: "general", topic: "t", content: `[gone](${up.body.uri})` });
    const row = await server.db("attachments").where({ path_id: pathId }).first();
    const before = await counts();

    const foreign = await server.as(other).delete(`/attachments/${row.id}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid attachment" });
    const unknown = await server.as(member).delete(`/attachments/999999`);
    expect(unknown.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Invalid attachment" });
    expect(await counts()).toEqual(before);

    const res = await server.as(member).delete(`/attachments/${row.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await server.db("attachments").where({ id: row.id })).toEqual([]);
    expect(await server.db("attachment_messages").where({ message_id: sent.body.id })).toEqual([]);
    expect(fs.existsSync(path.join(server.config.uploadsDir, "store", "user_uploads", ...pathId.split("/")))).toBe(
      false,
    );
    expect((await getRaw(server, member, up.body.uri)).status).toBe(404);
  });
});

describe("non-ASCII file names", () => {
  it("keeps the original name, percent-encodes the URL, and links either spelling in messages", async () => {
    const { member, other } = server.users;
    const res = await upload(server, member, [{ field: "file", name: "résumé ñ.txt", data: "cv" }]);
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe("résumé ñ.txt");
    expect(res.body.uri).toMatch(/\/r%C3%A9sum%C3%A9-%C3%B1\.txt$/);
    expect((await getRaw(server, member, res.body.uri)).bytes.toString()).toBe("cv");
    const decoded = decodeURI(res.body.uri);
    const sent = await server
      .as(member)
      .post("/messages", { type: "stream", to: "general", topic: "cv", content: `[cv](${decoded})` });
    const links = await server.db("attachment_messages").where({ message_id: sent.body.id });
    expect(links).toHaveLength(1);
    expect((await getRaw(server, other, res.body.uri)).status).toBe(200);
  });
});

describe("hostile file names", () => {
  it("a `../` name is answered, listed and downloaded under its sanitised name", async () => {
    const { member } = server.users;
    const res = await upload(server, member, [{ field: "file", name: "../../etc/pass\u0000wd\u202e.txt", data: "x" }]);
    expect(res.status).toBe(200);
    expect(res.body.filename).toBe("passwd.txt");
    expect(res.body.uri).not.toContain("..");
    const got = await getRaw(server, member, res.body.uri);
    expect(got.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''passwd.txt");
    const list = await server.as(member).get("/attachments");
    expect(list.body.attachments.map((a: { name: string }) => a.name)).toContain("passwd.txt");
    expect(JSON.stringify(list.body)).not.toContain("../");
  });
});

describe("zulip-js", () => {
  it("uploads with the client's own FormData and fetch, then lists and deletes with callEndpoint", async () => {
    // zulip-js posts multipart bodies built with these two (see node_modules/zulip-js/lib/api.js).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const helper = require("zulip-js/lib/helper");
    const { zulipJs } = await import("../support/zulipJs");
    const { member } = server.users;
    const client = await zulipJs(server, member);
    const form = new helper.FormData();
    form.append("file", Buffer.from("from zulip-js"), { filename: "js.txt", contentType: "text/plain" });
    const response = await helper.fetch(`${client.config.apiURL}/user_uploads`, {
      method: "POST",
      body: form,
      headers: { Authorization: authHeader(member) },
    });
    const uploaded = await response.json();
    expect(uploaded).toMatchObject({ result: "success", filename: "js.txt" });

    const list = await client.callEndpoint("/attachments", "GET", {});
    const entry = list.attachments.find((a: { path_id: string }) => `/user_uploads/${a.path_id}` === uploaded.uri);
    expect(entry).toMatchObject({ name: "js.txt", size: 13, message_ids: [] });
    expect(list.upload_space_used).toBeGreaterThanOrEqual(13);
    expect(await client.callEndpoint(`/attachments/${entry.id}`, "DELETE", {})).toEqual({ result: "success", msg: "" });
  });
});
