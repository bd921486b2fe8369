// GET /messages windows around an anchor: both sides at once (one SQL statement), the anchor's
// inclusion, the edges, and the first_unread anchor.
import type { ApiResponse } from "../support/client";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
/** Ids of the messages in general > "window", oldest first. */
let ids: number[];
/** A message of another topic, sent between ids[2] and ids[3]. */
let gap: number;

beforeAll(async () => {
  server = await startTestServer();
  ids = [];
  for (let i = 0; i < 7; i++) {
    const sender = i % 2 === 0 ? server.users.owner : server.users.other;
    const res = await server
      .as(sender)
      .post("/messages", { type: "stream", to: "general", topic: "window", content: `message ${i}` });
    ids.push(res.body.id);
    if (i === 2) {
      const other = { type: "stream", to: "general", topic: "elsewhere", content: "not in the narrow" };
      gap = (await server.as(server.users.owner).post("/messages", other)).body.id;
    }
  }
});
afterAll(async () => {
  await server.close();
});

const narrow = [
  ["channel", "general"],
  ["topic", "window"],
];

/** The member's GET /messages answer in the narrow, plus the ids of its messages. */
async function read(params: Record<string, unknown>): Promise<ApiResponse["body"] & { ids: number[] }> {
  const res = await server.as(server.users.member).get("/messages", { narrow, ...params });
  expect(res.status).toBe(200);
  return { ...res.body, ids: res.body.messages.map((m: { id: number }) => m.id) };
}

/** The SQL statements reading the messages table while `run` goes. */
async function messageReads(run: () => Promise<unknown>): Promise<number> {
  let reads = 0;
  const count = (query: { sql: string }) => {
    if (/^\(?select .* from [`"]messages[`"]/i.test(query.sql)) reads++;
  };
  server.db.on("query", count);
  try {
    await run();
  } finally {
    server.db.off("query", count);
  }
  return reads;
}

describe("a window on both sides of the anchor", () => {
  it("gives the older messages, the anchor and the newer ones, oldest first, in one statement", async () => {
    let body: Awaited<ReturnType<typeof read>> | undefined;
    const reads = await messageReads(async () => {
      body = await read({ anchor: ids[3], num_before: 2, num_after: 2 });
    });
    expect(reads).toBe(1);
    expect(body!.ids).toEqual(ids.slice(1, 6));
    expect(body!).toMatchObject({
      anchor: ids[3],
      found_anchor: true,
      found_oldest: false,
      found_newest: false,
    });
  });

  it("leaves the anchor out with include_anchor=false", async () => {
    const body = await read({ anchor: ids[3], num_before: 2, num_after: 2, include_anchor: false });
    expect(body.ids).toEqual([ids[1], ids[2], ids[4], ids[5]]);
    expect(body.found_anchor).toBe(false);
  });

  it("reaches the edges: fewer messages than asked for on either side", async () => {
    const body = await read({ anchor: ids[1], num_before: 5, num_after: 50 });
    expect(body.ids).toEqual(ids);
    expect(body).toMatchObject({ found_anchor: true, found_oldest: true, found_newest: true });
  });

  it("an anchor that is no message of the narrow splits the window at its id", async () => {
    const body = await read({ anchor: gap, num_before: 2, num_after: 2, include_anchor: false });
    expect(body.ids).toEqual([ids[1], ids[2], ids[3], ids[4]]);
    expect(body).toMatchObject({ anchor: gap, found_anchor: false });
  });

  it("an anchor that is no message of the narrow, include_anchor left on: still num_after newer ones", async () => {
    const body = await read({ anchor: gap, num_before: 2, num_after: 2 });
    expect(body.ids).toEqual([ids[1], ids[2], ids[3], ids[4]]);
    expect(body).toMatchObject({ anchor: gap, found_anchor: false, found_newest: false });
    const toTheEnd = await read({ anchor: gap, num_before: 0, num_after: 4 });
    expect(toTheEnd.ids).toEqual(ids.slice(3));
    expect(toTheEnd.found_newest).toBe(false);
    const pastTheEnd = await read({ anchor: gap, num_before: 0, num_after: 5 });
    expect(pastTheEnd.ids).toEqual(ids.slice(3));
    expect(pastTheEnd.found_newest).toBe(true);
  });

  it("nothing before the oldest or after the newest message", async () => {
    const oldest = await read({ anchor: ids[0], num_before: 3, num_after: 0 });
    expect(oldest.ids).toEqual([ids[0]]);
    expect(oldest.found_oldest).toBe(true);
    const newest = await read({ anchor: ids[6], num_before: 0, num_after: 3, include_anchor: false });
    expect(newest.ids).toEqual([]);
    expect(newest.found_newest).toBe(true);
  });

  it("each message keeps its own fields whichever side it is on", async () => {
    const both = await read({ anchor: ids[3], num_before: 3, num_after: 3 });
    const single = await Promise.all(
      ids.map(async (id) => (await server.as(server.users.member).get(`/messages/${id}`)).body.message),
    );
    expect(both.messages).toEqual(single);
  });
});

describe("the first_unread anchor", () => {
  afterEach(async () => {
    await server.db("user_messages").where({ user_id: server.users.member.id }).update({ flags: 0 });
  });

  it("centres the window on the member's oldest unread message of the narrow", async () => {
    const member = server.users.member.id;
    await server
      .db("user_messages")
      .where({ user_id: member })
      .whereIn("message_id", ids.slice(0, 4))
      .update({ flags: 1 });
    const body = await read({ anchor: "first_unread", num_before: 1, num_after: 1 });
    expect(body.ids).toEqual([ids[3], ids[4], ids[5]]);
    expect(body).toMatchObject({ anchor: ids[4], found_anchor: true });
  });

  it("is:unread narrows to the member's unread messages; one read since is out", async () => {
    const member = server.users.member.id;
    const unread = [...narrow, ["is", "unread"]];
    await server
      .db("user_messages")
      .where({ user_id: member })
      .whereIn("message_id", ids.slice(0, 4))
      .update({ flags: 1 });
    const res = await server.as(server.users.member).get("/messages", {
      narrow: unread,
      anchor: "newest",
      num_before: 10,
      num_after: 0,
    });
    expect(res.status).toBe(200);
    expect(res.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(4));
    expect(res.body.messages.every((m: { flags: string[] }) => !m.flags.includes("read"))).toBe(true);
    await server.db("user_messages").where({ user_id: member, message_id: ids[5] }).update({ flags: 1 });
    const after = await server.as(server.users.member).get("/messages", {
      narrow: unread,
      anchor: "newest",
      num_before: 10,
      num_after: 0,
    });
    expect(after.body.messages.map((m: { id: number }) => m.id)).toEqual([ids[4], ids[6]]);
  });

  it("all read: the window ends at the newest message", async () => {
    await server.db("user_messages").where({ user_id: server.users.member.id }).update({ flags: 1 });
    const body = await read({ anchor: "first_unread", num_before: 2, num_after: 2 });
    expect(body.ids).toEqual(ids.slice(-2));
    expect(body).toMatchObject({ found_anchor: false, found_newest: true });
  });
});
