// Custom emoji through the real app: upload (type sniffed from the bytes with sharp, stills for
// animations), listing, deactivation, permissions, events, and that refused uploads leave nothing behind.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../support/harness";

// zulip-js replaces the global FormData with the form-data package when loaded; keep Node's own.
const NativeFormData = globalThis.FormData;

let server: TestServer;
let png: Buffer;
let gif: Buffer;
let webp: Buffer;
const fakePng = Buffer.from("this is plain text pretending to be a PNG\n");

beforeAll(async () => {
  server = await startTestServer();
  const frame = (color: string) =>
    sharp({ create: { width: 16, height: 16, channels: 4, background: color } })
      .png()
      .toBuffer();
  const [red, green] = [await frame("#ff0000"), await frame("#00ff00")];
  png = red;
  gif = await sharp([red, green], { join: { animated: true } })
    .gif()
    .toBuffer();
  webp = await sharp([red, green], { join: { animated: true } })
    .webp()
    .toBuffer();
});
afterAll(async () => {
  await server.close();
});

function authHeader(user: TestUser): string {
  return "Basic " + Buffer.from(`${user.email}:${user.apiKey}`).toString("base64");
}

async function uploadEmoji(
  user: TestUser,
  name: string,
  files: { field?: string; name: string; data: Buffer; type?: string }[],
) {
  const form = new NativeFormData();
  for (const f of files) form.append(f.field ?? "file", new Blob([f.data], { type: f.type ?? "image/png" }), f.name);
  const res = await fetch(`${server.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: "POST",
    body: form,
    headers: { authorization: authHeader(user) },
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

function filesOnDisk(): string[] {
  const dir = server.config.uploadsDir;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

async function emojiRows() {
  return server.db("realm_emoji").orderBy("id");
}

/** Runs a refused upload and checks status/code/msg, and that neither DB nor disk changed. */
async function expectRefused(
  user: TestUser,
  name: string,
  files: Parameters<typeof uploadEmoji>[2],
  status: number,
  msg: string,
) {
  const rowsBefore = await emojiRows();
  const diskBefore = filesOnDisk();
  const res = await uploadEmoji(user, name, files);
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg });
  expect(await emojiRows()).toEqual(rowsBefore);
  expect(filesOnDisk()).toEqual(diskBefore);
}

describe("POST /realm/emoji/{emoji_name}", () => {
  it("stores a PNG and lists it; the image is served publicly", async () => {
    const { member } = server.users;
    const res = await uploadEmoji(member, "Party Parrot", [{ name: "parrot.png", data: png }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
    const list = await server.as(server.users.other).get("/realm/emoji");
    expect(list.status).toBe(200);
    const [entry] = Object.values(list.body.emoji) as Record<string, any>[];
    expect(entry).toEqual({
      id: expect.any(String),
      name: "party_parrot",
      source_url: expect.stringMatching(
        new RegExp(`^/user_avatars/${server.realm.id}/emoji/images/[0-9a-f]{24}\\.png$`),
      ),
      still_url: null,
      deactivated: false,
      author_id: member.id,
    });
    expect(list.body.emoji[entry.id]).toBe(entry);
    const row = await server
      .db("realm_emoji")
      .where({ id: Number(entry.id) })
      .first();
    expect(row).toMatchObject({
      realm_id: server.realm.id,
      name: "party_parrot",
      author_id: member.id,
      file_name: entry.source_url.split("/").pop(),
    });
    expect(Boolean(row.is_animated)).toBe(false);
    const image = await fetch(server.url + entry.source_url);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    // Only the stored image remains: no temp file from the multipart parser.
    expect(filesOnDisk()).toEqual([
      path.join(server.config.uploadsDir, "store", ...entry.source_url.slice(1).split("/")),
    ]);
  });

  it.each([
    ["gif", () => gif],
    ["webp", () => webp],
  ])("stores an animated %s with a still first-frame PNG", async (format, data) => {
    const res = await uploadEmoji(server.users.member, `dance-${format}`, [
      { name: `dance.${format}`, data: data(), type: `image/${format}` },
    ]);
    expect(res.status).toBe(200);
    const list = await server.as(server.users.member).get("/realm/emoji");
    const entry = (Object.values(list.body.emoji) as Record<string, any>[]).find((e) => e.name === `dance-${format}`)!;
    expect(entry.source_url).toMatch(new RegExp(`\\.${format}$`));
    expect(entry.still_url).toMatch(
      new RegExp(`^/user_avatars/${server.realm.id}/emoji/images/still/[0-9a-f]{24}\\.png$`),
    );
    const still = Buffer.from(await (await fetch(server.url + entry.still_url)).arrayBuffer());
    const meta = await sharp(still, { animated: true }).metadata();
    expect(meta.format).toBe("png");
    expect(meta.pages ?? 1).toBe(1);
    const { dominant } = await sharp(still).stats();
    expect(dominant.r).toBeGreaterThan(200); // the first (red) frame
    expect(
      Boolean(
        (
          await server
            .db("realm_emoji")
            .where({ id: Number(entry.id) })
            .first()
        ).is_animated,
      ),
    ).toBe(true);
  });

  it("accepts the image under any field name (as the Python client's call_endpoint sends it)", async () => {
    const res = await uploadEmoji(server.users.owner, "python_style", [
      { field: "/home/me/img.png", name: "img.png", data: png, type: "application/octet-stream" },
    ]);
    expect(res.status).toBe(200);
  });

  it("refuses a text file named .png with an image content type", async () => {
    await expectRefused(
      server.users.member,
      "liar",
      [{ name: "liar.png", data: fakePng, type: "image/png" }],
      400,
      "Could not decode image; did you upload an image file?",
    );
  });

  it("refuses image formats that are not allowed (SVG)", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
    );
    await expectRefused(server.users.member, "vector", [{ name: "v.png", data: svg }], 400, "Invalid image format");
  });

  it("refuses a file over the emoji size limit (5 MiB) with nothing left on disk", async () => {
    const big = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)]);
    await expectRefused(
      server.users.member,
      "huge",
      [{ name: "huge.png", data: big }],
      400,
      "Uploaded file is larger than the allowed limit of 5 MiB",
    );
  });

  it("checks the name", async () => {
    const file = [{ name: "a.png", data: png }];
    await expectRefused(server.users.member, "bad!name", file, 400, "Invalid characters in emoji name");
    await expectRefused(server.users.member, "ends_", file, 400, "Emoji names must end with either a letter or digit.");
    await expectRefused(server.users.member, "   ", file, 400, "Emoji name is missing");
    await expectRefused(
      server.users.member,
      "x".repeat(101),
      file,
      400,
      "Emoji name is too long (limit: 100 characters)",
    );
    await expectRefused(server.users.other, "PARTY parrot", file, 400, "A custom emoji with this name already exists.");
  });

  it("requires exactly one file", async () => {
    await expectRefused(server.users.member, "nofile", [], 400, "You must upload exactly one file.");
    await expectRefused(
      server.users.member,
      "twofiles",
      [
        { field: "a", name: "a.png", data: png },
        { field: "b", name: "b.png", data: png },
      ],
      400,
      "You must upload exactly one file.",
    );
  });

  it("follows can_add_custom_emoji_group, and only admins override Unicode emoji names", async () => {
    await expectRefused(server.users.guest, "guesty", [{ name: "g.png", data: png }], 400, "Insufficient permission");
    await expectRefused(
      server.users.member,
      "smile",
      [{ name: "s.png", data: png }],
      400,
      "Only administrators can override default emoji.",
    );
    expect((await uploadEmoji(server.users.admin, "smile", [{ name: "s.png", data: png }])).status).toBe(200);

    const admins = await server
      .db("user_groups")
      .where({ realm_id: server.realm.id, name: "role:administrators" })
      .first();
    const original = server.realm.can_add_custom_emoji_group;
    await server.db("realms").where({ id: server.realm.id }).update({ can_add_custom_emoji_group: admins.id });
    try {
      await expectRefused(
        server.users.member,
        "members_cannot",
        [{ name: "m.png", data: png }],
        400,
        "Insufficient permission",
      );
      expect((await uploadEmoji(server.users.owner, "owners_can", [{ name: "o.png", data: png }])).status).toBe(200);
    } finally {
      await server.db("realms").where({ id: server.realm.id }).update({ can_add_custom_emoji_group: original });
    }
  });
});

describe("DELETE /realm/emoji/{emoji_name}", () => {
  it("deactivates own emoji; others need to be administrators; unknown names are 404", async () => {
    const { member, other, admin } = server.users;
    expect((await uploadEmoji(member, "to_remove", [{ name: "r.png", data: png }])).status).toBe(200);
    const before = await emojiRows();

    const foreign = await server.as(other).delete("/realm/emoji/to_remove");
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Must be an organization administrator or emoji author",
    });
    const missing = await server.as(member).delete("/realm/emoji/green_tick");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Emoji 'green_tick' does not exist" });
    expect(await emojiRows()).toEqual(before);

    const own = await server.as(member).delete("/realm/emoji/to_remove");
    expect(own.status).toBe(200);
    expect(own.body).toEqual({ result: "success", msg: "" });
    const list = await server.as(member).get("/realm/emoji");
    const removed = (Object.values(list.body.emoji) as Record<string, any>[]).find((e) => e.name === "to_remove")!;
    expect(removed.deactivated).toBe(true);
    // The image stays available: old messages and reactions still show it.
    expect((await fetch(server.url + removed.source_url)).status).toBe(200);
    const again = await server.as(member).delete("/realm/emoji/to_remove");
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe("Emoji 'to_remove' does not exist");
    // The name is free again.
    expect((await uploadEmoji(member, "to_remove", [{ name: "r.png", data: png }])).status).toBe(200);

    const byAdmin = await server.as(admin).delete("/realm/emoji/to_remove");
    expect(byAdmin.status).toBe(200);
  });
});

describe("realm_emoji events and register state", () => {
  it("sends the full set to every user on change and includes it in /register", async () => {
    const queue = await server
      .as(server.users.other)
      .post("/register", { event_types: ["realm_emoji"], fetch_event_types: ["realm_emoji"] });
    expect(queue.status).toBe(200);
    const stateNames = Object.values(queue.body.realm_emoji as Record<string, { name: string }>).map((e) => e.name);
    expect(stateNames).toContain("party_parrot");

    expect((await uploadEmoji(server.users.member, "evented", [{ name: "e.png", data: png }])).status).toBe(200);
    expect((await server.as(server.users.member).delete("/realm/emoji/evented")).status).toBe(200);
    const events = await server
      .as(server.users.other)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1 });
    const emojiEvents = events.body.events.filter((e: { type: string }) => e.type === "realm_emoji");
    expect(emojiEvents).toHaveLength(2);
    expect(emojiEvents[0].op).toBe("update");
    const added = (Object.values(emojiEvents[0].realm_emoji) as Record<string, any>[]).find(
      (e) => e.name === "evented",
    )!;
    expect(added.deactivated).toBe(false);
    const removed = emojiEvents[1].realm_emoji[added.id];
    expect(removed.deactivated).toBe(true);
  });

  it("is readable with zulip-js", async () => {
    const { zulipJs } = await import("../support/zulipJs");
    const client = await zulipJs(server, server.users.member);
    const res = await client.emojis.retrieve();
    expect(res.result).toBe("success");
    expect(Object.values(res.emoji).map((e: any) => e.name)).toContain("party_parrot");
  });
});
