// Custom profile fields: administration (every type and error), own values through
// /users/me/profile_data (validation per type, restrictions, bots), user objects, events, clients.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const admin = () => server.as(server.users.admin);
const fieldRows = () =>
  server
    .db("custom_profile_fields")
    .orderBy("id")
    .select("name", "field_type", "field_data", "sort_order", "editable_by_user");
const valueRows = () =>
  server.db("custom_profile_field_values").orderBy("id").select("user_id", "field_id", "value", "rendered_value");
const OPTIONS = { vim: { text: "Vim", order: "1" }, emacs: { text: "Emacs", order: "2" } };

async function reset(): Promise<void> {
  await server.db("custom_profile_field_values").delete();
  await server.db("custom_profile_fields").delete();
}

async function makeFields(): Promise<Record<string, number>> {
  const specs: [string, Record<string, unknown>][] = [
    ["short", { name: "Phone", field_type: 1 }],
    ["long", { name: "Biography", field_type: 2, hint: "About you" }],
    ["select", { name: "Editor", field_type: 3, field_data: OPTIONS }],
    ["date", { name: "Birthday", field_type: 4 }],
    ["link", { name: "Homepage", field_type: 5 }],
    ["users", { name: "Mentor", field_type: 6 }],
    ["github", { field_type: 7, field_data: { subtype: "github" } }],
    ["pronouns", { name: "Pronouns", field_type: 8 }],
    ["locked", { name: "Employee ID", field_type: 1, editable_by_user: false }],
  ];
  const ids: Record<string, number> = {};
  for (const [key, params] of specs) {
    const res = await admin().post("/realm/profile_fields", params);
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    ids[key] = res.body.id;
  }
  return ids;
}

describe("administering fields", () => {
  beforeEach(reset);

  it("creates fields of every type, lists them in order, sends events and fills register state", async () => {
    const queue = await server.as(server.users.member).post("/register", { event_types: ["custom_profile_fields"] });
    const ids = await makeFields();
    const list = await server.as(server.users.guest).get("/realm/profile_fields");
    expect(list.body.custom_fields).toHaveLength(9);
    expect(list.body.custom_fields[2]).toEqual({
      id: ids.select,
      name: "Editor",
      type: 3,
      hint: "",
      field_data: JSON.stringify(OPTIONS),
      order: 2,
      display_in_profile_summary: false,
      required: false,
      editable_by_user: true,
    });
    expect(list.body.custom_fields[6]).toMatchObject({
      name: "GitHub",
      hint: "Enter your GitHub username",
      field_data: '{"subtype":"github"}',
    });
    const events = await server
      .as(server.users.member)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toHaveLength(9);
    expect(events.body.events[8]).toMatchObject({ type: "custom_profile_fields", fields: list.body.custom_fields });

    const state = await server
      .as(server.users.member)
      .post("/register", { fetch_event_types: ["custom_profile_fields"] });
    expect(state.body.custom_profile_fields).toEqual(list.body.custom_fields);
    expect(state.body.custom_profile_field_types.PRONOUNS).toEqual({ id: 8, name: "Pronouns" });
  });

  it("updates, reorders and deletes fields; removing a list option drops values that used it", async () => {
    const ids = await makeFields();
    await server.as(server.users.member).patch("/users/me/profile_data", {
      data: [
        { id: ids.select, value: "emacs" },
        { id: ids.short, value: "123" },
      ],
    });
    const upd = await admin().patch(`/realm/profile_fields/${ids.select}`, {
      name: "Favourite editor",
      field_data: { vim: OPTIONS.vim },
      display_in_profile_summary: true,
    });
    expect(upd.body).toEqual({ result: "success", msg: "" });
    expect((await valueRows()).map((v) => v.field_id)).toEqual([ids.short]);
    const order = Object.values(ids).reverse();
    expect((await admin().patch("/realm/profile_fields", { order })).body).toEqual({ result: "success", msg: "" });
    const listed = (await admin().get("/realm/profile_fields")).body.custom_fields;
    expect(listed.map((f: any) => f.id)).toEqual(order);
    expect(listed.find((f: any) => f.id === ids.select)).toMatchObject({
      name: "Favourite editor",
      display_in_profile_summary: true,
    });
    expect((await admin().delete(`/realm/profile_fields/${ids.short}`)).body).toEqual({ result: "success", msg: "" });
    expect(await valueRows()).toEqual([]);
    expect((await fieldRows()).map((f) => f.name)).not.toContain("Phone");
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ["an unknown type", { name: "X", field_type: 9 }, "Invalid field type."],
    ["a blank label", { name: "  ", field_type: 1 }, "Label cannot be blank."],
    [
      "a duplicate label (case-insensitive)",
      { name: "phone", field_type: 1 },
      "A field with that label already exists.",
    ],
    ["a too-long label", { name: "x".repeat(41), field_type: 1 }, "name is too long (limit: 40 characters)"],
    ["a list without options", { name: "L", field_type: 3, field_data: {} }, "Field must have at least one choice."],
    [
      "duplicate options",
      { name: "L", field_type: 3, field_data: { a: { text: "A", order: "1" }, b: { text: "A", order: "2" } } },
      "Field must not have duplicate choices.",
    ],
    [
      "an option without text",
      { name: "L", field_type: 3, field_data: { a: { order: "1" } } },
      'field_data["a"]["text"] is not a string',
    ],
    [
      "an unknown external account type",
      { name: "E", field_type: 7, field_data: { subtype: "myspace" } },
      "Invalid external account type",
    ],
    [
      "a custom external account without URL pattern",
      { name: "E", field_type: 7, field_data: { subtype: "custom" } },
      "Custom external account must define URL pattern",
    ],
    [
      "a URL pattern without %(username)s",
      { name: "E", field_type: 7, field_data: { subtype: "custom", url_pattern: "https://x.example/" } },
      "URL pattern must contain '%(username)s'.",
    ],
    [
      "a long text field in the summary",
      { name: "Bio2", field_type: 2, display_in_profile_summary: true },
      "Field type not supported for display in profile summary.",
    ],
    ["field_data that is not an object", { name: "L", field_type: 3, field_data: [1] }, "field_data is not a dict"],
  ];
  it.each(invalid)("refuses %s", async (_label, params, msg) => {
    await admin().post("/realm/profile_fields", { name: "Phone", field_type: 1 });
    const before = await fieldRows();
    const res = await admin().post("/realm/profile_fields", params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg });
    expect(await fieldRows()).toEqual(before);
  });

  it("refuses a third summary field, unknown ids, bad order mappings and non-administrators", async () => {
    const ids = await makeFields();
    await admin().patch(`/realm/profile_fields/${ids.short}`, { display_in_profile_summary: true });
    await admin().patch(`/realm/profile_fields/${ids.date}`, { display_in_profile_summary: true });
    const before = await fieldRows();
    const checks: [Promise<any>, string, string][] = [
      [
        admin().patch(`/realm/profile_fields/${ids.link}`, { display_in_profile_summary: true }),
        "BAD_REQUEST",
        "Only 2 custom profile fields can be displayed in the profile summary.",
      ],
      [
        admin().patch(`/realm/profile_fields/${ids.link}`, { name: "Phone" }),
        "BAD_REQUEST",
        "A field with that label already exists.",
      ],
      [admin().patch("/realm/profile_fields/99999", { name: "X" }), "BAD_REQUEST", "Field id 99999 not found."],
      [admin().delete("/realm/profile_fields/99999"), "BAD_REQUEST", "Field id 99999 not found."],
      [admin().patch("/realm/profile_fields", { order: [ids.short] }), "BAD_REQUEST", "Invalid order mapping."],
      [
        admin().patch("/realm/profile_fields", { order: [...Object.values(ids).slice(1), ids.link] }),
        "BAD_REQUEST",
        "Invalid order mapping.",
      ],
      [
        server.as(server.users.moderator).post("/realm/profile_fields", { name: "Y", field_type: 1 }),
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        server.as(server.users.member).patch(`/realm/profile_fields/${ids.short}`, { name: "Y" }),
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        server.as(server.users.member).delete(`/realm/profile_fields/${ids.short}`),
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        server.as(server.users.member).patch("/realm/profile_fields", { order: Object.values(ids) }),
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
    ];
    for (const [request, code, msg] of checks) {
      const res = await request;
      expect([res.status, res.body]).toEqual([400, expect.objectContaining({ result: "error", code, msg })]);
    }
    expect(await fieldRows()).toEqual(before);
  });
});

describe("PATCH / DELETE /users/me/profile_data", () => {
  let ids: Record<string, number>;
  beforeEach(async () => {
    await reset();
    ids = await makeFields();
  });

  it("sets a value of every type, shows them on user objects and sends realm_user events", async () => {
    const { member, other } = server.users;
    const queue = await server.as(other).post("/register", { event_types: ["realm_user"] });
    const data = [
      { id: ids.short, value: "+1 555 0100" },
      { id: ids.long, value: "I like **bold** things" },
      { id: ids.select, value: "vim" },
      { id: ids.date, value: "1990-02-28" },
      { id: ids.link, value: "https://example.com/me" },
      { id: ids.users, value: [other.id, server.users.owner.id] },
      { id: ids.github, value: "mel" },
      { id: ids.pronouns, value: "she/her" },
    ];
    const res = await server.as(member).patch("/users/me/profile_data", { data });
    expect(res.body).toEqual({ result: "success", msg: "" });
    // Stored as written: user lists as JSON text, rendered HTML only for the text fields.
    const rendered = (value: string, html: string | null = null) => ({ value, rendered_value: html });
    expect(await valueRows()).toEqual([
      { user_id: member.id, field_id: ids.short, ...rendered("+1 555 0100", "<p>+1 555 0100</p>") },
      {
        user_id: member.id,
        field_id: ids.long,
        ...rendered("I like **bold** things", "<p>I like <strong>bold</strong> things</p>"),
      },
      { user_id: member.id, field_id: ids.select, ...rendered("vim") },
      { user_id: member.id, field_id: ids.date, ...rendered("1990-02-28") },
      { user_id: member.id, field_id: ids.link, ...rendered("https://example.com/me") },
      { user_id: member.id, field_id: ids.users, ...rendered(JSON.stringify([other.id, server.users.owner.id])) },
      { user_id: member.id, field_id: ids.github, ...rendered("mel") },
      { user_id: member.id, field_id: ids.pronouns, ...rendered("she/her") },
    ]);

    const me = await server.as(member).get("/users/me", { include_custom_profile_fields: true });
    expect(me.body.profile_data).toEqual({
      [ids.short]: { value: "+1 555 0100", rendered_value: "<p>+1 555 0100</p>" },
      [ids.long]: { value: "I like **bold** things", rendered_value: "<p>I like <strong>bold</strong> things</p>" },
      [ids.select]: { value: "vim" },
      [ids.date]: { value: "1990-02-28" },
      [ids.link]: { value: "https://example.com/me" },
      [ids.users]: { value: JSON.stringify([other.id, server.users.owner.id]) },
      [ids.github]: { value: "mel" },
      [ids.pronouns]: { value: "she/her" },
    });
    const one = await server.as(other).get(`/users/${member.id}`, { include_custom_profile_fields: true });
    expect(one.body.user.profile_data).toEqual(me.body.profile_data);
    const all = await server.as(other).get("/users", { include_custom_profile_fields: true });
    expect(all.body.members.find((u: any) => u.user_id === member.id).profile_data).toEqual(me.body.profile_data);
    expect(all.body.members.find((u: any) => u.user_id === other.id).profile_data).toEqual({});
    expect((await server.as(other).get(`/users/${member.id}`)).body.user.profile_data).toBeUndefined();
    const registered = await server.as(other).post("/register", { fetch_event_types: ["realm_user"] });
    expect(registered.body.realm_users.find((u: any) => u.user_id === member.id).profile_data).toEqual(
      me.body.profile_data,
    );

    const events = await server
      .as(other)
      .get("/events", { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toHaveLength(8);
    expect(events.body.events[1]).toMatchObject({
      type: "realm_user",
      op: "update",
      person: {
        user_id: member.id,
        custom_profile_field: {
          id: ids.long,
          value: "I like **bold** things",
          rendered_value: "<p>I like <strong>bold</strong> things</p>",
        },
      },
    });

    // null clears a value; DELETE clears by field id.
    await server.as(member).patch("/users/me/profile_data", { data: [{ id: ids.short, value: null }] });
    expect((await server.as(member).delete("/users/me/profile_data", { data: [ids.long, ids.select] })).body).toEqual({
      result: "success",
      msg: "",
    });
    expect((await valueRows()).map((v) => v.field_id)).toEqual([
      ids.date,
      ids.link,
      ids.users,
      ids.github,
      ids.pronouns,
    ]);
  });

  it("lets administrators change fields users may not edit", async () => {
    const res = await admin().patch("/users/me/profile_data", { data: [{ id: ids.locked, value: "E-7" }] });
    expect(res.body).toEqual({ result: "success", msg: "" });
  });

  const bad: [string, (ids: Record<string, number>) => unknown, string][] = [
    ["an unknown field", () => [{ id: 99999, value: "x" }], "Field id 99999 not found."],
    [
      "a field users may not edit",
      (f) => [{ id: f.locked, value: "E-1" }],
      "You are not allowed to change this field. Contact an administrator to update it.",
    ],
    [
      "a too-long short text",
      (f) => [{ id: f.short, value: "x".repeat(51) }],
      "Phone is too long (limit: 50 characters)",
    ],
    [
      "a too-long long text",
      (f) => [{ id: f.long, value: "x".repeat(501) }],
      "Biography is too long (limit: 500 characters)",
    ],
    [
      "a list value that is not an option key",
      (f) => [{ id: f.select, value: "Vim" }],
      "'Vim' is not a valid choice for 'Editor'.",
    ],
    ["a malformed date", (f) => [{ id: f.date, value: "28/02/1990" }], "Birthday is not a date"],
    ["an impossible date", (f) => [{ id: f.date, value: "1990-02-30" }], "Birthday is not a date"],
    ["a link that is not a URL", (f) => [{ id: f.link, value: "example dot com" }], "Homepage is not a URL"],
    ["a link with a non-web scheme", (f) => [{ id: f.link, value: "javascript:alert(1)" }], "Homepage is not a URL"],
    ["a person that is not in the realm", (f) => [{ id: f.users, value: [99999] }], "Invalid user ID: 99999"],
    ["a person field given a string", (f) => [{ id: f.users, value: "3" }], "Mentor is not a list"],
    ["text given a list", (f) => [{ id: f.short, value: [1] }], "Phone is not a string"],
    [
      "a valid item followed by a bad one",
      (f) => [
        { id: f.short, value: "ok" },
        { id: f.date, value: "soon" },
      ],
      "Birthday is not a date",
    ],
    ["data that is not a list of {id, value}", () => [{ id: 1 }], "data is not a list of {id, value} objects"],
  ];
  it.each(bad)("refuses %s", async (_label, data, msg) => {
    const res = await server.as(server.users.member).patch("/users/me/profile_data", { data: data(ids) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg });
    expect(await valueRows()).toEqual([]);
  });

  it("refuses bots, unknown or restricted fields on DELETE, and a missing data argument", async () => {
    await admin().patch("/users/me/profile_data", { data: [{ id: ids.locked, value: "E-7" }] });
    await server.as(server.users.member).patch("/users/me/profile_data", { data: [{ id: ids.short, value: "1" }] });
    const before = await valueRows();
    const checks: [Promise<any>, string, string][] = [
      [
        server.as(server.users.genericBot).patch("/users/me/profile_data", { data: [{ id: ids.short, value: "1" }] }),
        "BAD_REQUEST",
        "This endpoint does not accept bot requests.",
      ],
      [
        server.as(server.users.genericBot).delete("/users/me/profile_data", { data: [ids.short] }),
        "BAD_REQUEST",
        "This endpoint does not accept bot requests.",
      ],
      [
        server.as(server.users.member).delete("/users/me/profile_data", { data: [99999] }),
        "BAD_REQUEST",
        "Field id 99999 not found.",
      ],
      [
        server.as(server.users.member).delete("/users/me/profile_data", { data: [ids.short, ids.locked] }),
        "BAD_REQUEST",
        "You are not allowed to change this field. Contact an administrator to update it.",
      ],
      [
        server.as(server.users.member).patch("/users/me/profile_data", {}),
        "REQUEST_VARIABLE_MISSING",
        "Missing 'data' argument",
      ],
    ];
    for (const [request, code, msg] of checks) {
      const res = await request;
      expect([res.status, res.body]).toEqual([400, expect.objectContaining({ result: "error", code, msg })]);
    }
    expect(await valueRows()).toEqual(before);
  });
});

describe("clients", () => {
  beforeEach(reset);

  it("zulip-js callEndpoint: multipart POST, query-string PATCH / DELETE", async () => {
    const owner = await zulipJs(server, server.users.owner);
    const created = await owner.callEndpoint("/realm/profile_fields", "POST", {
      name: "Team",
      field_type: 3,
      field_data: JSON.stringify(OPTIONS),
    });
    expect(created).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    expect((await owner.callEndpoint("/realm/profile_fields", "GET", {})).custom_fields).toHaveLength(1);
    const member = await zulipJs(server, server.users.member);
    expect(
      await member.callEndpoint("/users/me/profile_data", "PATCH", {
        data: JSON.stringify([{ id: created.id, value: "vim" }]),
      }),
    ).toEqual({ result: "success", msg: "" });
    expect(
      await member.callEndpoint("/users/me/profile_data", "DELETE", { data: JSON.stringify([created.id]) }),
    ).toEqual({ result: "success", msg: "" });
    expect(await owner.callEndpoint(`/realm/profile_fields/${created.id}`, "PATCH", { hint: "Which team?" })).toEqual({
      result: "success",
      msg: "",
    });
    expect(await owner.callEndpoint(`/realm/profile_fields/${created.id}`, "DELETE", {})).toEqual({
      result: "success",
      msg: "",
    });
    expect(await fieldRows()).toEqual([]);
  });

  it("Python-client style form-encoded call_endpoint", async () => {
    const created = await admin().request("POST", "/realm/profile_fields", { name: "Phone", field_type: "1" });
    expect(created.body).toMatchObject({ result: "success" });
    const set = await server
      .as(server.users.member)
      .request("PATCH", "/users/me/profile_data", { data: [{ id: created.body.id, value: "555" }] });
    expect(set.body).toEqual({ result: "success", msg: "" });
  });
});
