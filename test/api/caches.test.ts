// The hot-path caches stay correct across processes: a change made through process B (a service call
// or an API request on the second server) is seen by process A at once, although A had the old rows
// cached. The invalidation travels over Redis (REDIS_URL), like events do.
import sharp from "sharp";
import { updateStream } from "../../src/db/streams";
import { updateUser } from "../../src/db/users";
import { ROLE } from "../../src/db/rows";
import { setRealmDeactivated } from "../../src/services/realms/realms";
import { changeRole, createUser, regenerateApiKey, setUserActive } from "../../src/services/users/users";
import { startSecondServer, startTestServer, type TestServer, type TestUser } from "../support/harness";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

let a: TestServer;
let b: Awaited<ReturnType<typeof startSecondServer>>;

/** A fresh member of A's organization (so no test depends on another's changes). */
async function newUser(name: string): Promise<TestUser> {
  const { user, apiKey } = await createUser(a.db, a.realm.id, {
    email: `${name}@test.example`,
    fullName: name,
    role: ROLE.member,
  });
  return { ...user, apiKey };
}

/**
 * Set-up, not an assertion: both servers' Redis clients connect in the background (slowly on a busy
 * machine), so wait until an invalidation from B reaches A once.
 */
async function waitUntilBothProcessesListen(): Promise<void> {
  const probe = await newUser("probe");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    expect((await a.as(probe).get("/users/me")).status).toBe(200); // cached on A
    const oldKey = probe.apiKey;
    probe.apiKey = await regenerateApiKey(b.deps.db, probe.id);
    if ((await a.as({ ...probe, apiKey: oldKey }).get("/users/me")).status === 401) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("Redis invalidations never reached the first server");
}

async function sendOnA(sender: TestUser, to: string, content: string): Promise<number> {
  const res = await a.as(sender).post("/messages", { type: "stream", to, topic: "cache", content });
  expect(res.body).toMatchObject({ result: "success" });
  return res.body.id;
}

beforeAll(async () => {
  a = await startTestServer({ REDIS_URL });
  b = await startSecondServer(a);
  await waitUntilBothProcessesListen();
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe("a change made through process B is seen by process A at once", () => {
  test("API key → user: a regenerated key", async () => {
    const user = await newUser("rekey");
    expect((await a.as(user).get("/users/me")).status).toBe(200);
    const newKey = await regenerateApiKey(b.deps.db, user.id);
    expect((await a.as(user).get("/users/me")).status).toBe(401);
    expect((await a.as({ ...user, apiKey: newKey }).get("/users/me")).status).toBe(200);
  });

  test("API key → user: deactivation and reactivation", async () => {
    const user = await newUser("leaver");
    expect((await a.as(user).get("/users/me")).status).toBe(200);
    await setUserActive(b.deps.db, user.id, false);
    expect((await a.as(user).get("/users/me")).body.code).toBe("USER_DEACTIVATED");
    await setUserActive(b.deps.db, user.id, true);
    expect((await a.as(user).get("/users/me")).status).toBe(200);
  });

  test("API key → user: a role change", async () => {
    const user = await newUser("promoted");
    expect((await a.as(user).get("/users/me")).body.role).toBe(ROLE.member);
    await changeRole(b.deps.db, a.realm.id, user.id, ROLE.administrator);
    expect((await a.as(user).get("/users/me")).body.role).toBe(ROLE.administrator);
  });

  test("realm: a deactivated organization", async () => {
    const user = await newUser("realmcheck");
    expect((await a.as(user).get("/users/me")).status).toBe(200);
    await setRealmDeactivated(b.deps.db, "", true);
    try {
      expect((await a.as(user).get("/users/me")).body.code).toBe("REALM_DEACTIVATED");
    } finally {
      await setRealmDeactivated(b.deps.db, "", false);
    }
    expect((await a.as(user).get("/users/me")).status).toBe(200);
  });

  test("channel by name and by id: an archived channel", async () => {
    const owner = a.users.owner;
    expect(
      (await a.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "archive-me" }] })).status,
    ).toBe(200);
    await sendOnA(owner, "archive-me", "before"); // by name
    const streamId = (await a.as(owner).get("/get_stream_id", { stream: "archive-me" })).body.stream_id;
    await sendOnA(owner, String(streamId), "before"); // by id
    await updateStream(b.deps.db, streamId, { is_archived: true });
    for (const to of ["archive-me", String(streamId)]) {
      const res = await a.as(owner).post("/messages", { type: "stream", to, topic: "cache", content: "after" });
      expect(res.body.msg).toBe("Not authorized to send to channel 'archive-me'");
    }
  });

  test("subscribers of a channel: a new subscriber receives the next message", async () => {
    const [owner, other] = [a.users.owner, a.users.other];
    await a.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "joiners" }] });
    await sendOnA(owner, "joiners", "before");
    expect((await b.as(other).post("/users/me/subscriptions", { subscriptions: [{ name: "joiners" }] })).status).toBe(
      200,
    );
    const id = await sendOnA(owner, "joiners", "after");
    expect(await a.db("user_messages").where({ message_id: id, user_id: other.id }).first()).toBeDefined();
  });

  test("linkifiers: a new linkifier applies to the next message", async () => {
    const send = async () => {
      const id = await sendOnA(a.users.owner, "general", "see CACHE-42");
      return (await a.as(a.users.owner).get(`/messages/${id}`)).body.message.content as string;
    };
    expect(await send()).toBe("<p>see CACHE-42</p>");
    const res = await b.as(a.users.admin).post("/realm/filters", {
      pattern: "CACHE-(?P<id>[0-9]+)",
      url_template: "https://tracker.example/{id}",
    });
    expect(res.status).toBe(200);
    expect(await send()).toContain('<a href="https://tracker.example/42"');
  });

  test("muted users: a new mute marks the next message from the muted sender read", async () => {
    const [sender, muter] = [a.users.member, a.users.admin];
    const before = await sendOnA(sender, "general", "before the mute");
    const flags = async (id: number) =>
      (await a.db("user_messages").where({ message_id: id, user_id: muter.id }).first()).flags & 1;
    expect(await flags(before)).toBe(0);
    expect((await b.as(muter).post(`/users/me/muted_users/${sender.id}`)).status).toBe(200);
    expect(await flags(await sendOnA(sender, "general", "after the mute"))).toBe(1);
  });

  test("custom emoji: a new emoji can be used for a reaction", async () => {
    const id = await sendOnA(a.users.owner, "general", "react to me");
    const react = () => a.as(a.users.member).post(`/messages/${id}/reactions`, { emoji_name: "cache_parrot" });
    expect((await react()).status).toBe(400);
    const png = await sharp({ create: { width: 4, height: 4, channels: 4, background: "#f00" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "parrot.png");
    const auth = Buffer.from(`${a.users.member.email}:${a.users.member.apiKey}`).toString("base64");
    const upload = await fetch(`${b.url}/api/v1/realm/emoji/cache_parrot`, {
      method: "POST",
      body: form,
      headers: { authorization: `Basic ${auth}` },
    });
    expect(upload.status).toBe(200);
    expect((await react()).body).toEqual({ result: "success", msg: "" });
  });

  test("reactions of messages: a reaction added and removed through B shows on A's messages", async () => {
    const id = await sendOnA(a.users.owner, "general", "react through B");
    const reactions = async () => (await a.as(a.users.owner).get(`/messages/${id}`)).body.message.reactions;
    expect(await reactions()).toEqual([]);
    const path = `/messages/${id}/reactions`;
    expect((await b.as(a.users.member).post(path, { emoji_name: "smile" })).status).toBe(200);
    expect(await reactions()).toEqual([
      { emoji_name: "smile", emoji_code: "1f642", reaction_type: "unicode_emoji", user_id: a.users.member.id },
    ]);
    expect((await b.as(a.users.member).delete(path, { emoji_name: "smile" })).status).toBe(200);
    expect(await reactions()).toEqual([]);
  });

  test("users lookups of formatting: a changed name shows on messages", async () => {
    const user = await newUser("renamed");
    await a.as(a.users.owner).post("/users/me/subscriptions", {
      subscriptions: [{ name: "general" }],
      principals: [user.id],
    });
    const id = await sendOnA(user, "general", "who am I");
    const senderName = async () => (await a.as(user).get(`/messages/${id}`)).body.message.sender_full_name;
    expect(await senderName()).toBe("renamed");
    await updateUser(b.deps.db, user.id, { full_name: "Renamed Person" });
    expect(await senderName()).toBe("Renamed Person");
  });
});
