// Names compare the same on SQLite and MySQL/MariaDB: case-insensitive, accent-sensitive, NFC and
// NFD alike (src/names.ts). Every case runs through the real app on the database under test.
// Edge cases decided (docs/http-contract.md, "How names compare"): Turkish dotless "ı" equals "i"/"I" (its upper case is "I",
// as the reference's upper() comparison has it) while dotted "İ" equals only itself (and I + U+0307,
// its NFD); German "ß" equals capital "ẞ" but not "ss".
import sharp from "sharp";
import { startTestServer, usingMysql, type TestServer, type TestUser } from "../support/harness";
import { nameKey } from "../../src/names";
import { createNamedGroup } from "../../src/services/groups/groups";

// zulip-js (loaded by other suites) may replace FormData; keep Node's own.
const NativeFormData = globalThis.FormData;

const NFD = (text: string) => text.normalize("NFD");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function createChannel(name: string, user: TestUser = server.users.admin) {
  const res = await server.as(user).post("/users/me/subscriptions", { subscriptions: [{ name }] });
  expect(res.status).toBe(200);
  return res.body;
}

/** The id `GET /get_stream_id` answers for a name, or undefined when it finds no channel. */
async function channelIdByName(name: string): Promise<number | undefined> {
  const res = await server.as(server.users.admin).get("/get_stream_id", { stream: name });
  if (res.status === 200) return res.body.stream_id;
  expect(res.body.code).toBe("STREAM_DOES_NOT_EXIST");
  return undefined;
}

const channelsNamed = (name: string) =>
  server
    .db("streams")
    .where({ realm_id: server.realm.id, name_key: nameKey(name) })
    .select("id", "name");

describe("channel names", () => {
  it("are case-insensitive but accent-sensitive (the issue's examples)", async () => {
    await createChannel("résumé");
    await createChannel("General"); // `general` exists: this subscribes, it creates nothing
    const resume = await channelIdByName("résumé");
    expect(resume).toEqual(expect.any(Number));
    expect(await channelIdByName("RÉSUMÉ")).toBe(resume);
    expect(await channelIdByName("resume")).toBeUndefined();
    expect(await channelIdByName("General")).toBe(server.general.id);
    expect(await channelIdByName("GENERAL")).toBe(server.general.id);
    expect(await channelIdByName("Général")).toBeUndefined();
    expect(await channelsNamed("general")).toHaveLength(1);
  });

  it("'resume' beside 'résumé' is a second channel, and each name finds its own", async () => {
    await createChannel("resume");
    const accented = await channelIdByName("Résumé");
    const plain = await channelIdByName("Resume");
    expect(plain).toEqual(expect.any(Number));
    expect(plain).not.toBe(accented);
  });

  it("NFC and NFD spellings are one channel, stored in NFC", async () => {
    const created = await createChannel(NFD("Café crème"));
    expect(Object.values(created.subscribed).flat()).toEqual(["Café crème"]);
    const again = await createChannel("café crème".normalize("NFC"), server.users.member);
    expect(Object.values(again.subscribed).flat()).toEqual(["Café crème"]);
    const rows = await channelsNamed("café crème");
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe("Café crème".normalize("NFC"));
    expect(await channelIdByName(NFD("CAFÉ CRÈME"))).toBe(rows[0].id);
    expect(await channelIdByName("cafe creme")).toBeUndefined();
  });

  it("Turkish: dotless ı equals i and I; dotted İ equals only itself (and its NFD)", async () => {
    await createChannel("ırmak");
    const irmak = await channelIdByName("ırmak");
    expect(await channelIdByName("IRMAK")).toBe(irmak);
    expect(await channelIdByName("irmak")).toBe(irmak);
    await createChannel("İzmir");
    const izmir = await channelIdByName("İzmir");
    expect(await channelIdByName("İZMIR")).toBe(izmir);
    expect(await channelIdByName("İZMİR")).toBeUndefined(); // the second İ is not the i of "İzmir"
    expect(await channelIdByName(NFD("İzmir"))).toBe(izmir); // I + U+0307
    expect(await channelIdByName("izmir")).toBeUndefined();
    expect(await channelIdByName("Izmir")).toBeUndefined();
  });

  it("German: ß equals ẞ but not ss", async () => {
    await createChannel("Straße");
    const strasse = await channelIdByName("Straße");
    expect(await channelIdByName("STRAẞE")).toBe(strasse);
    expect(await channelIdByName("STRASSE")).toBeUndefined();
    await createChannel("Strasse");
    expect(await channelIdByName("strasse")).not.toBe(strasse);
  });

  it("a webhook's stream= finds the channel by the same rules", async () => {
    const { bot } = server.users;
    const post = (stream: string) =>
      fetch(`${server.url}/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=${encodeURIComponent(stream)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ featured_title: "T", featured_url: "https://example.com/t" }),
      });
    const resume = (await channelIdByName("Résumé"))!;
    const inResume = async () =>
      Number((await server.db("messages").where("stream_id", resume).count({ n: "*" }).first())!.n);
    const before = await inResume();
    expect((await post("RÉSUMÉ")).status).toBe(200);
    expect(await inResume()).toBe(before + 1);
    // "resumé" is another name: no such channel, so the reference's answer (200, the bot's owner is
    // told by DM) and nothing posted to Résumé.
    expect((await post("resumé")).status).toBe(200);
    expect(await inResume()).toBe(before + 1);
  });
});

describe("topics", () => {
  const channel = "topic-rules";
  let channelId: number;
  beforeAll(async () => {
    await createChannel(channel);
    channelId = (await channelIdByName(channel))!;
  });

  const send = (topic: string) =>
    server.as(server.users.admin).post("/messages", { type: "stream", to: channel, topic, content: `in ${topic}` });

  const topicsOf = async (operand: string): Promise<string[]> => {
    const res = await server.as(server.users.admin).get("/messages", {
      anchor: "oldest",
      num_before: 0,
      num_after: 100,
      narrow: [
        { operator: "channel", operand: channel },
        { operator: "topic", operand },
      ],
    });
    expect(res.status).toBe(200);
    return res.body.messages.map((m: { subject: string }) => m.subject);
  };

  it("narrows are case-insensitive, accent-sensitive, NFC/NFD-insensitive; topics are stored in NFC", async () => {
    for (const topic of ["Café", "cafe", NFD("CAFÉ"), "Çay", "çay", "çaý"])
      expect((await send(topic)).status).toBe(200);
    expect(await topicsOf("café")).toEqual(["Café", "CAFÉ".normalize("NFC")]);
    expect(await topicsOf(NFD("café"))).toEqual(["Café", "CAFÉ".normalize("NFC")]);
    expect(await topicsOf("CAFE")).toEqual(["cafe"]);
    expect(await topicsOf("ÇAY")).toEqual(["Çay", "çay"]);
    const stored: string[] = await server.db("messages").where({ stream_id: channelId }).pluck("topic");
    expect(stored).toContain("CAFÉ".normalize("NFC"));
    expect(stored.filter((topic) => topic !== topic.normalize("NFC"))).toEqual([]);
  });

  it("Turkish and German topics follow the channel-name rules", async () => {
    for (const topic of ["DİKKAT", "dıkkat", "Maße", "MASSE"]) expect((await send(topic)).status).toBe(200);
    expect(await topicsOf("dikkat")).toEqual(["dıkkat"]);
    expect(await topicsOf("dİkkat")).toEqual(["DİKKAT"]);
    expect(await topicsOf("MAẞE")).toEqual(["Maße"]);
    expect(await topicsOf("masse")).toEqual(["MASSE"]);
  });
});

describe("other names", () => {
  it("profile-field labels: 'Résumé' and 'Resume' are two fields, 'RÉSUMÉ' clashes, NFD is stored as NFC", async () => {
    const add = (name: string) => server.as(server.users.admin).post("/realm/profile_fields", { name, field_type: 1 });
    const first = await add(NFD("Résumé"));
    expect(first.status).toBe(200);
    expect((await add("Resume")).status).toBe(200);
    const clash = await add("RÉSUMÉ");
    expect(clash.status).toBe(400);
    expect(clash.body.msg).toBe("A field with that label already exists.");
    const row = await server.db("custom_profile_fields").where({ id: first.body.id }).first();
    expect(row.name).toBe("Résumé".normalize("NFC"));
  });

  it("channel folders: 'Café' and 'cafe' coexist; 'CAFÉ' in NFD clashes", async () => {
    const add = (name: string) =>
      server.as(server.users.admin).post("/channel_folders/create", { name, description: "" });
    expect((await add("Café")).status).toBe(200);
    expect((await add("cafe")).status).toBe(200);
    const clash = await add(NFD("CAFÉ"));
    expect(clash.status).toBe(400);
    expect(clash.body.msg).toBe("Channel folder name already in use");
  });

  it("user groups: 'Team' and 'team' clash, 'Téam' does not", async () => {
    await createNamedGroup(server.db, server.realm, { name: "Team", description: "", memberEmails: [] });
    await expect(
      createNamedGroup(server.db, server.realm, { name: "team", description: "", memberEmails: [] }),
    ).rejects.toThrow("A group named 'team' already exists");
    await expect(
      createNamedGroup(server.db, server.realm, { name: NFD("Téam"), description: "", memberEmails: [] }),
    ).resolves.toEqual(expect.any(Number));
  });

  it("user emails: case-insensitive, accent-sensitive", async () => {
    const dm = (to: string) =>
      server.as(server.users.admin).post("/messages", { type: "private", to: JSON.stringify([to]), content: "hi" });
    expect((await dm("MEMBER@Test.Example")).status).toBe(200);
    const accented = await dm("mémber@test.example");
    expect(accented.status).toBe(400);
  });

  it("custom emoji: names are case-insensitive; reactions name them exactly, accents included", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: "#00f" } })
      .png()
      .toBuffer();
    const form = new NativeFormData();
    form.append("file", new Blob([png], { type: "image/png" }), "party.png");
    const { admin } = server.users;
    const auth = "Basic " + Buffer.from(`${admin.email}:${admin.apiKey}`).toString("base64");
    const upload = await fetch(`${server.url}/api/v1/realm/emoji/Party`, {
      method: "POST",
      body: form,
      headers: { authorization: auth },
    });
    expect(upload.status).toBe(200);
    const sent = await server.as(admin).post("/messages", { type: "stream", to: "general", topic: "t", content: "x" });
    const react = (emoji_name: string) => server.as(admin).post(`/messages/${sent.body.id}/reactions`, { emoji_name });
    expect((await react("party")).status).toBe(200);
    const accented = await react("pärty");
    expect(accented.status).toBe(400);
    expect(accented.body.msg).toBe("Invalid emoji name");
    expect((await server.as(admin).delete("/realm/emoji/PARTY")).status).toBe(200);
  });
});

it("key columns compare byte for byte on MySQL (binary NO PAD collation)", async () => {
  if (!usingMysql()) return expect(usingMysql()).toBe(false); // SQLite compares bytes already
  const rows = await server
    .db("information_schema.COLUMNS")
    .whereRaw("TABLE_SCHEMA = DATABASE()")
    .whereIn("COLUMN_NAME", ["name_key", "email_key", "topic_key"])
    .select("TABLE_NAME as table", "COLUMN_NAME as column", "COLLATION_NAME as collation");
  expect(rows.map((row) => `${row.table}.${row.column}`).sort()).toEqual([
    "channel_folders.name_key",
    "custom_profile_fields.name_key",
    "messages.topic_key",
    "streams.name_key",
    "user_groups.name_key",
    "user_topics.topic_key",
    "users.email_key",
  ]);
  for (const row of rows) expect([row.table, row.collation]).toEqual([row.table, "utf8mb4_nopad_bin"]);
});
