// The permission services called directly on a real seeded database: who may add subscribers to a
// channel (services/channels/subscriptionAccess.ts) and who may act on a message and hears about it
// (services/messages/access.ts), one rule per test, each decided by one fact.
import { addGroupMembers, insertGroup, systemGroupIds } from "../../src/db/groups";
import { FLAG_BITS } from "../../src/db/messages";
import type { StreamRow, UserRow } from "../../src/db/rows";
import { upsertSubscriptions } from "../../src/db/subscriptions";
import { insertChannel } from "../../src/services/channels/channels";
import { canAddSubscribers, channelObserverIds } from "../../src/services/channels/subscriptionAccess";
import { accessMessage, ensureHistoricalRow, messageAudience } from "../../src/services/messages/access";
import { startTestServer, type TestServer } from "../support/harness";
import { apiErrorOfAsync } from "../support/apiErrors";

let server: TestServer;
let nobody: number;
let everyone: number;
let helpers: number; // a user group holding only `other`
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
  const groups = await systemGroupIds(server.db, server.realm.id);
  nobody = groups["role:nobody"];
  everyone = groups["role:everyone"];
  helpers = await insertGroup(server.db, { realm_id: server.realm.id, name: "helpers" });
  await addGroupMembers(server.db, helpers, [server.users.other.id]);
});
afterAll(() => server.close());

async function channel(
  options: {
    invite_only?: boolean;
    is_web_public?: boolean;
    history_public_to_subscribers?: boolean;
    groupSettings?: Record<string, number>;
  } = {},
  subscribers: UserRow[] = [],
): Promise<StreamRow> {
  const stream = await insertChannel(server.db, server.realm, server.users.owner, {
    name: `perm-${++counter}`,
    ...options,
  });
  if (subscribers.length)
    await upsertSubscriptions(
      server.db,
      subscribers.map((u) => ({ user_id: u.id, stream_id: stream.id })),
    );
  return stream;
}

/** The realm with its "who may add subscribers" set to `group`. */
const realmWith = (group: number) => ({ ...server.realm, can_add_subscribers_group: group });

describe("canAddSubscribers", () => {
  const may = (
    user: UserRow,
    stream: StreamRow,
    opts: { subscribed?: boolean; others?: boolean; realmGroup?: number } = {},
  ) =>
    canAddSubscribers(
      server.db,
      realmWith(opts.realmGroup ?? everyone),
      user,
      stream,
      opts.subscribed ?? false,
      opts.others ?? false,
    );

  it("lets administrators do anything, even on a private channel they are not in", async () => {
    const secret = await channel({ invite_only: true });
    const { admin, owner } = server.users;
    expect(await may(admin, secret, { others: true, realmGroup: nobody })).toBe(true);
    expect(await may(owner, secret, { others: true, realmGroup: nobody })).toBe(true);
  });

  it("lets the channel's add-subscribers or administer group add others without being subscribed", async () => {
    const { other, member } = server.users;
    const adders = await channel({ invite_only: true, groupSettings: { can_add_subscribers_group: helpers } });
    const admins = await channel({ invite_only: true, groupSettings: { can_administer_channel_group: helpers } });
    for (const stream of [adders, admins]) {
      expect(await may(other, stream, { others: true, realmGroup: nobody })).toBe(true);
      expect(await may(member, stream, { others: true, realmGroup: everyone })).toBe(false);
    }
  });

  it("adding others to a public channel needs the organization's permission", async () => {
    const { member } = server.users;
    const open = await channel();
    expect(await may(member, open, { others: true, realmGroup: everyone })).toBe(true);
    expect(await may(member, open, { others: true, realmGroup: nobody })).toBe(false);
    expect(await may(member, open, { others: true, realmGroup: helpers })).toBe(false);
  });

  it("adding others to a private channel needs a subscription as well", async () => {
    const { member } = server.users;
    const secret = await channel({ invite_only: true });
    expect(await may(member, secret, { others: true, subscribed: false })).toBe(false);
    expect(await may(member, secret, { others: true, subscribed: true })).toBe(true);
  });

  it("guests never add others, even subscribed and allowed by the organization", async () => {
    const { guest } = server.users;
    const open = await channel({ is_web_public: true });
    expect(await may(guest, open, { others: true, subscribed: true, realmGroup: everyone })).toBe(false);
  });

  it("anyone but a guest may join a public channel; guests only a web-public one", async () => {
    const { member, guest } = server.users;
    const open = await channel();
    expect(await may(member, open, { realmGroup: nobody })).toBe(true);
    expect(await may(guest, open, { realmGroup: nobody })).toBe(false);
    const web = await channel({ is_web_public: true });
    expect(await may(guest, web, { realmGroup: nobody })).toBe(true);
  });

  it("joining a private channel takes a subscription or the channel's subscribe group", async () => {
    const { member, other } = server.users;
    const secret = await channel({ invite_only: true });
    expect(await may(member, secret)).toBe(false);
    expect(await may(member, secret, { subscribed: true })).toBe(true);
    const joinable = await channel({ invite_only: true, groupSettings: { can_subscribe_group: helpers } });
    expect(await may(other, joinable)).toBe(true);
    expect(await may(member, joinable)).toBe(false);
    // The subscribe group lets its members join, not add others.
    expect(await may(other, joinable, { others: true })).toBe(false);
  });
});

describe("channelObserverIds", () => {
  it("lists who can see a channel: subscribers, everyone but guests when public, admins when private", async () => {
    const { owner, admin, member, guest, other } = server.users;
    const users = [owner, admin, member, guest, other];
    const open = await channel();
    expect(channelObserverIds(users, open, [])).toEqual([owner.id, admin.id, member.id, other.id]);
    expect(channelObserverIds(users, open, [guest.id])).toEqual(users.map((u) => u.id));
    const secret = await channel({ invite_only: true });
    expect(channelObserverIds(users, secret, [member.id])).toEqual([owner.id, admin.id, member.id]);
    const web = await channel({ is_web_public: true });
    expect(channelObserverIds(users, web, [])).toEqual(users.map((u) => u.id));
  });
});

describe("message access", () => {
  async function post(from: UserRow & { apiKey: string }, stream: StreamRow): Promise<number> {
    const res = await server.as(from).post("/messages", { type: "stream", to: stream.name, topic: "t", content: "hi" });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }
  const flagsOf = async (userId: number, messageId: number) =>
    (await server.db("user_messages").where({ user_id: userId, message_id: messageId }).first())?.flags;
  async function refused(promise: Promise<unknown>): Promise<string> {
    const err = await apiErrorOfAsync(promise);
    return err ? `${err.code}: ${err.message}` : "allowed";
  }

  it("gives access through one's own row, whatever the channel", async () => {
    const { owner, member } = server.users;
    const secret = await channel({ invite_only: true, history_public_to_subscribers: false }, [owner, member]);
    const id = await post(owner, secret);
    const access = await accessMessage(server.db, server.realm, member, id);
    expect([access.message.id, access.stream?.id, access.hasRow]).toEqual([id, secret.id, true]);
  });

  it("refuses a message that does not exist or is in another organization's id space", async () => {
    expect(await refused(accessMessage(server.db, server.realm, server.users.member, 987654321))).toBe(
      "BAD_REQUEST: Invalid message(s)",
    );
    const { owner } = server.users;
    const open = await channel({}, [owner]);
    const id = await post(owner, open);
    const elsewhere = { ...server.realm, id: server.realm.id + 1000 };
    expect(await refused(accessMessage(server.db, elsewhere, owner, id))).toBe("BAD_REQUEST: Invalid message(s)");
  });

  it("reads a public channel's history without a row, for members and (web-public only) guests", async () => {
    const { owner, member, guest } = server.users;
    const open = await channel({}, [owner]);
    const id = await post(owner, open);
    expect((await accessMessage(server.db, server.realm, member, id)).hasRow).toBe(false);
    expect(await refused(accessMessage(server.db, server.realm, guest, id))).toBe("BAD_REQUEST: Invalid message(s)");
    const web = await channel({ is_web_public: true }, [owner]);
    const webId = await post(owner, web);
    expect((await accessMessage(server.db, server.realm, guest, webId)).hasRow).toBe(false);
  });

  it("a subscribed guest reads a public channel's earlier history", async () => {
    const { owner, guest } = server.users;
    const open = await channel({}, [owner]);
    const id = await post(owner, open);
    await upsertSubscriptions(server.db, [{ user_id: guest.id, stream_id: open.id }]);
    expect((await accessMessage(server.db, server.realm, guest, id)).hasRow).toBe(false);
  });

  it("a private channel's shared history is for subscribers only, web-public or not", async () => {
    const { owner, member, admin } = server.users;
    const secret = await channel({ invite_only: true, history_public_to_subscribers: true }, [owner]);
    const id = await post(owner, secret);
    expect(await refused(accessMessage(server.db, server.realm, member, id))).toBe("BAD_REQUEST: Invalid message(s)");
    expect(await refused(accessMessage(server.db, server.realm, admin, id))).toBe("BAD_REQUEST: Invalid message(s)");
    const webSecret = await channel({ invite_only: true, is_web_public: true, history_public_to_subscribers: true }, [
      owner,
    ]);
    const webId = await post(owner, webSecret);
    expect(await refused(accessMessage(server.db, server.realm, member, webId))).toBe(
      "BAD_REQUEST: Invalid message(s)",
    );
    await upsertSubscriptions(server.db, [{ user_id: member.id, stream_id: secret.id }]);
    expect((await accessMessage(server.db, server.realm, member, id)).hasRow).toBe(false);
  });

  it("without shared history, only a row gives access", async () => {
    const { owner, member } = server.users;
    const secret = await channel({ invite_only: true, history_public_to_subscribers: false }, [owner]);
    const id = await post(owner, secret);
    await upsertSubscriptions(server.db, [{ user_id: member.id, stream_id: secret.id }]);
    expect(await refused(accessMessage(server.db, server.realm, member, id))).toBe("BAD_REQUEST: Invalid message(s)");
  });

  it("a direct message is only for those with a row", async () => {
    const { owner, member, other } = server.users;
    const res = await server
      .as(owner)
      .post("/messages", { type: "direct", to: JSON.stringify([member.id]), content: "dm" });
    const id = res.body.id as number;
    expect((await accessMessage(server.db, server.realm, member, id)).stream).toBeUndefined();
    expect(await refused(accessMessage(server.db, server.realm, other, id))).toBe("BAD_REQUEST: Invalid message(s)");
  });

  it("ensureHistoricalRow writes a read, historical row once, and none for a row already there", async () => {
    const { owner, member } = server.users;
    const open = await channel({}, [owner]);
    const id = await post(owner, open);
    const access = await accessMessage(server.db, server.realm, member, id);
    await ensureHistoricalRow(server.db, access, member.id);
    expect(await flagsOf(member.id, id)).toBe(FLAG_BITS.historical | FLAG_BITS.read);
    const again = await accessMessage(server.db, server.realm, member, id);
    expect(again.hasRow).toBe(true);
    await ensureHistoricalRow(server.db, again, member.id);
    expect(await server.db("user_messages").where({ user_id: member.id, message_id: id }).count({ n: "*" })).toEqual([
      { n: 1 },
    ]);
    const ownerFlags = await flagsOf(owner.id, id);
    await ensureHistoricalRow(server.db, await accessMessage(server.db, server.realm, owner, id), owner.id);
    expect(await flagsOf(owner.id, id)).toBe(ownerFlags);
  });

  it("messageAudience is everyone with a row, plus current subscribers when history is shared", async () => {
    const { owner, member, other, admin } = server.users;
    const shared = await channel({}, [owner, member]);
    const id = await post(owner, shared);
    await upsertSubscriptions(server.db, [{ user_id: other.id, stream_id: shared.id }]);
    const access = await accessMessage(server.db, server.realm, owner, id);
    expect((await messageAudience(server.db, access)).sort((a, b) => a - b)).toEqual(
      [owner.id, member.id, other.id].sort((a, b) => a - b),
    );
    const closed = await channel({ invite_only: true, history_public_to_subscribers: false }, [owner, member]);
    const closedId = await post(owner, closed);
    await upsertSubscriptions(server.db, [{ user_id: admin.id, stream_id: closed.id }]);
    const closedAccess = await accessMessage(server.db, server.realm, owner, closedId);
    expect((await messageAudience(server.db, closedAccess)).sort((a, b) => a - b)).toEqual(
      [owner.id, member.id].sort((a, b) => a - b),
    );
  });
});
