// POST /register answers every key the reference documents (../shared/reference, verbatim OpenAPI),
// with the documented JSON type: the complete answer, not what one client happens to read. Each
// key's description says which `fetch_event_types` entry brings it ("Present if `realm` is ...").
// Also the values zulip-terminal reads with no fallback, and the heartbeat interval.
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { startSecondServer, startTestServer, type SecondServer, type TestServer } from "../support/harness";

const SPEC = path.resolve(__dirname, "../../../shared/reference/zulip-openapi-subset-2.yaml");
// js-yaml comes with the test tooling; without it (or the reference) the schema checks are skipped.
function loadYaml(): { load(text: string): any } | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("js-yaml") as { load(text: string): any };
  } catch {
    return undefined;
  }
}
const yaml = fs.existsSync(SPEC) ? loadYaml() : undefined;
const haveSpec = yaml !== undefined;

interface DocumentedKey {
  name: string;
  /** The fetch_event_types entry that brings it, or undefined for the keys every answer has. */
  eventType?: string;
  types: string[];
  nullable: boolean;
}

function documentedKeys(): DocumentedKey[] {
  const doc = yaml!.load(fs.readFileSync(SPEC, "utf8"));
  const resolve = (s: any): any => {
    while (s?.$ref) s = doc.components.schemas[s.$ref.split("/").pop()];
    return s;
  };
  const props: Record<string, any> = {};
  const collect = (s: any) => {
    s = resolve(s);
    for (const k of ["allOf", "oneOf", "anyOf"]) for (const x of s[k] ?? []) collect(x);
    Object.assign(props, s.properties ?? {});
  };
  collect(doc.paths["/register"].post.responses["200"].content["application/json"].schema);
  const out: DocumentedKey[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (["result", "msg", "ignored_parameters_unsupported"].includes(name)) continue;
    const parts = [raw, ...(raw.allOf ?? []), ...(raw.oneOf ?? [])].map(resolve);
    const description = parts.map((p: any) => p.description ?? "").join(" ");
    const present = /Present if `(\w+)`/.exec(description);
    const types = parts.flatMap((p: any) => (p.type ? [p.type] : (p.oneOf ?? []).map((o: any) => resolve(o).type)));
    const nullable = parts.some((p: any) => p.nullable) || /null/.test(description);
    out.push({ name, eventType: present?.[1], types: types.filter(Boolean), nullable });
  }
  return out;
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

(haveSpec ? it : it.skip)("every documented key is answered, with its documented type", async () => {
  const keys = documentedKeys();
  // unread_msgs needs update_message_flags too; drafts has its own type (no "Present if" in its text).
  const eventTypes = [
    ...new Set([...keys.flatMap((k) => (k.eventType ? [k.eventType] : [])), "update_message_flags", "drafts"]),
  ];
  expect(eventTypes).toEqual(expect.arrayContaining(["realm", "presence", "user_settings", "realm_user"]));
  const res = await server.as(server.users.member).post("/register", { fetch_event_types: eventTypes });
  expect(res.status).toBe(200);
  const missing: string[] = [];
  const wrongType: string[] = [];
  for (const key of keys) {
    // Only demo organizations have a deletion date.
    if (key.name === "demo_organization_scheduled_deletion_date") continue;
    if (!(key.name in res.body)) {
      missing.push(`${key.name} (${key.eventType ?? "always"})`);
      continue;
    }
    const value = res.body[key.name];
    const type = jsonType(value);
    if (type === "null" && key.nullable) continue;
    // Group-setting values are documented without a type (an id or an object).
    if (key.types.length === 0) continue;
    const accepted = key.types.flatMap((t) => (t === "number" ? ["number", "integer"] : [t]));
    if (!accepted.includes(type)) wrongType.push(`${key.name}: ${type}, documented ${key.types.join("|")}`);
  }
  expect(missing).toEqual([]);
  expect(wrongType).toEqual([]);
});

it("the keys zulip-terminal reads with no fallback have the right values", async () => {
  const { member, owner } = server.users;
  const res = await server.as(member).post("/register", {
    fetch_event_types: [
      "realm",
      "presence",
      "subscription",
      "message",
      "starred_messages",
      "update_message_flags",
      "muted_topics",
      "realm_user",
      "realm_user_groups",
      "user_settings",
      "realm_emoji",
      "custom_profile_fields",
      "zulip_version",
    ],
    event_types: ["message"],
    client_gravatar: true,
    apply_markdown: true,
    include_subscribers: true,
  });
  expect(res.status).toBe(200);
  const s = res.body;
  expect(s).toMatchObject({ user_id: member.id, email: member.email, full_name: member.full_name });
  expect(s.is_admin).toBe(false);
  expect(s.cross_realm_bots.map((b: any) => b.user_id)).toContain(server.realm.notification_bot_id);
  expect(s.cross_realm_bots[0]).toMatchObject({ is_bot: true, is_system_bot: true });
  expect(s.muted_topics).toEqual([]);
  expect(s.presences).toEqual({});
  expect(s.realm_allow_message_editing).toBe(true);
  expect(s.realm_message_content_edit_limit_seconds).toBe(600);
  expect(s.realm_allow_edit_history).toBe(true);
  expect(s.user_settings).toMatchObject({
    twenty_four_hour_time: false,
    send_private_typing_notifications: true,
    pm_content_in_desktop_notifications: true,
    timezone: expect.any(String),
  });
  const groups = s.realm_user_groups.map((g: any) => g.name);
  expect(groups).toEqual(expect.arrayContaining(["role:everyone", "role:members", "role:administrators"]));
  const admins = s.realm_user_groups.find((g: any) => g.name === "role:administrators");
  expect(admins).toMatchObject({
    is_system_group: true,
    members: expect.any(Array),
    direct_subgroup_ids: expect.any(Array),
  });
  expect(admins.members).not.toContain(member.id);
  const owners = s.realm_user_groups.find((g: any) => g.name === "role:owners");
  expect(owners.members).toEqual([owner.id]);
});

it("another organization's users are never in realm_users, cross_realm_bots or groups", async () => {
  const res = await server.as(server.users.owner).post("/register", {
    fetch_event_types: ["realm_user", "realm_user_groups"],
  });
  const realmIds = new Set(
    (
      await server
        .db("users")
        .whereIn(
          "id",
          res.body.realm_users.map((u: any) => u.user_id),
        )
        .select("realm_id")
    ).map((r: any) => r.realm_id),
  );
  expect([...realmIds]).toEqual([server.realm.id]);
  const groupRealms = await server
    .db("user_groups")
    .whereIn(
      "id",
      res.body.realm_user_groups.map((g: any) => g.id),
    )
    .distinct("realm_id");
  expect(groupRealms.map((r: any) => r.realm_id)).toEqual([server.realm.id]);
});

it("long-polls get their heartbeat well inside the Python client's 90 s timeout", () => {
  // The register answer keeps the reference's 90 s (clients time out after it); the heartbeat
  // comes after EVENT_QUEUE_HEARTBEAT_SECONDS, 45 s by default.
  const defaults = loadConfig({ NODE_ENV: "test", DATA_DIR: "/tmp" });
  expect(defaults.longPollTimeoutSeconds).toBe(90);
  expect(defaults.heartbeatSeconds).toBe(45);
});

describe("narrow on /register (as print-events sends it)", () => {
  it("a narrowed queue gets only the matching message events", async () => {
    const { member, owner } = server.users;
    await server.as(owner).post("/users/me/subscriptions", { subscriptions: [{ name: "elsewhere" }] });
    await server
      .as(owner)
      .post("/users/me/subscriptions", { subscriptions: [{ name: "elsewhere" }], principals: [member.id] });
    // The Python client sends every non-string value JSON-encoded (narrow as legacy pairs).
    const queue = await server.as(member).post("/register", {
      event_types: ["message"],
      narrow: [["stream", "general"]],
    });
    expect(queue.status).toBe(200);
    const negated = await server.as(member).post("/register", {
      event_types: ["message"],
      narrow: [{ operator: "channel", operand: "general", negated: true }],
    });
    const sent = async (to: string, topic: string) =>
      (await server.as(owner).post("/messages", { type: "stream", to, topic, content: `in ${to}` })).body.id;
    const inGeneral = await sent("general", "a");
    const inElsewhere = await sent("elsewhere", "b");
    const dm = (await server.as(owner).post("/messages", { type: "private", to: [member.id], content: "dm" })).body.id;
    const ids = async (queueId: string) =>
      (await server.as(member).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events
        .filter((e: any) => e.type === "message")
        .map((e: any) => e.message.id);
    expect(await ids(queue.body.queue_id)).toEqual([inGeneral]);
    expect(await ids(negated.body.queue_id)).toEqual([inElsewhere, dm]);
  });

  it("topic, is:dm and search narrows; an unknown operator is a 400 and registers nothing", async () => {
    const { member, owner } = server.users;
    const byTopic = await server.as(member).post("/register", {
      narrow: [
        ["stream", "general"],
        ["topic", "Wanted"],
      ],
    });
    const dms = await server.as(member).post("/register", { narrow: [["is", "dm"]] });
    const searched = await server.as(member).post("/register", { narrow: [["search", "WANTED y"]] });
    await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "other", content: "x" });
    const wanted = (
      await server.as(owner).post("/messages", { type: "stream", to: "general", topic: "wanted", content: "y" })
    ).body.id;
    const dm = (await server.as(owner).post("/messages", { type: "private", to: [member.id], content: "z" })).body.id;
    const ids = async (queueId: string) =>
      (await server.as(member).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events
        .filter((e: any) => e.type === "message")
        .map((e: any) => e.message.id);
    expect(await ids(byTopic.body.queue_id)).toEqual([wanted]);
    expect(await ids(dms.body.queue_id)).toEqual([dm]);
    expect(await ids(searched.body.queue_id)).toEqual([wanted]);

    const bad = await server.as(member).post("/register", { narrow: [["bogus", "x"]] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ result: "error", code: "BAD_REQUEST" });
    expect(bad.body.queue_id).toBeUndefined();
  });
});

describe("narrow with queues in Redis", () => {
  let a: TestServer;
  let b: SecondServer;
  beforeAll(async () => {
    a = await startTestServer({ REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379" });
    b = await startSecondServer(a);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("another process delivering to the queue applies its narrow too", async () => {
    const { member, owner } = a.users;
    const queue = await a.as(member).post("/register", { event_types: ["message"], narrow: [["topic", "kept"]] });
    expect(queue.status).toBe(200);
    // Sent through process B: it reads the queue's settings (narrow included) from Redis.
    await b.as(owner).post("/messages", { type: "stream", to: "general", topic: "dropped", content: "1" });
    const kept = (await b.as(owner).post("/messages", { type: "stream", to: "general", topic: "kept", content: "2" }))
      .body.id;
    const events = await b
      .as(member)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events.filter((e: any) => e.type === "message").map((e: any) => e.message.id)).toEqual([kept]);
  });
});
