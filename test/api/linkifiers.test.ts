// Linkifiers: administration with every validation error, events and register state, rendering
// (outside code and links, in configured order), RE2 safety, zulip-js and form-encoded clients.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  await server.db("linkifiers").delete();
});

const ISSUE = { pattern: "#(?P<id>[0-9]+)", url_template: "https://github.com/zulip/zulip/issues/{id}" };
const rows = () =>
  server
    .db("linkifiers")
    .orderBy("id")
    .select("pattern", "url_template", "example_input", "reverse_template", "sort_order");
const admin = () => server.as(server.users.admin);

async function send(content: string): Promise<string> {
  const sent = await server
    .as(server.users.member)
    .post("/messages", { type: "stream", to: "general", topic: "links", content });
  expect(sent.status).toBe(200);
  return (await server.as(server.users.member).get(`/messages/${sent.body.id}`)).body.message.content;
}

describe("creating, listing, updating, reordering and deleting", () => {
  it("creates a linkifier, lists it, sends events to capable clients and fills register state", async () => {
    const capable = await server
      .as(server.users.member)
      .post("/register", { event_types: ["realm_linkifiers"], client_capabilities: { linkifier_url_template: true } });
    const legacy = await server.as(server.users.member).post("/register", { event_types: ["realm_linkifiers"] });
    const res = await admin().post("/realm/filters", {
      ...ISSUE,
      example_input: "#1234",
      reverse_template: "#{id}",
      alternative_url_templates: ["https://github.com/zulip/zulip/pull/{id}"],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    const expected = {
      id: res.body.id,
      ...ISSUE,
      example_input: "#1234",
      reverse_template: "#{id}",
      alternative_url_templates: ["https://github.com/zulip/zulip/pull/{id}"],
    };
    expect((await server.as(server.users.guest).get("/realm/linkifiers")).body).toEqual({
      result: "success",
      msg: "",
      linkifiers: [expected],
    });

    const events = await server
      .as(server.users.member)
      .get("/events", { queue_id: capable.body.queue_id, last_event_id: -1, dont_block: true });
    expect(events.body.events).toEqual([{ type: "realm_linkifiers", realm_linkifiers: [expected], id: 0 }]);
    const none = await server
      .as(server.users.member)
      .get("/events", { queue_id: legacy.body.queue_id, last_event_id: -1, dont_block: true });
    expect(none.body.events).toEqual([]);

    const state = await server.as(server.users.member).post("/register", {
      fetch_event_types: ["realm_linkifiers"],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(state.body.realm_linkifiers).toEqual([expected]);
    const oldState = await server
      .as(server.users.member)
      .post("/register", { fetch_event_types: ["realm_linkifiers"] });
    expect(oldState.body.realm_linkifiers).toEqual([]);
  });

  it("updates a linkifier; empty example_input / reverse_template reset them to null", async () => {
    const { id } = (await admin().post("/realm/filters", { ...ISSUE, example_input: "#1", reverse_template: "#{id}" }))
      .body;
    const res = await admin().patch(`/realm/filters/${id}`, {
      pattern: "T(?P<num>[0-9]+)",
      url_template: "https://trac.example/{num}",
      example_input: "",
      reverse_template: "",
    });
    expect(res.body).toEqual({ result: "success", msg: "" });
    expect(await rows()).toEqual([
      {
        pattern: "T(?P<num>[0-9]+)",
        url_template: "https://trac.example/{num}",
        example_input: null,
        reverse_template: null,
        sort_order: 0,
      },
    ]);
  });

  it("reorders and deletes", async () => {
    const a = (await admin().post("/realm/filters", ISSUE)).body.id;
    const b = (
      await admin().post("/realm/filters", { pattern: "T(?P<n>[0-9]+)", url_template: "https://t.example/{n}" })
    ).body.id;
    expect((await admin().patch("/realm/linkifiers", { ordered_linkifier_ids: [b, a] })).body).toEqual({
      result: "success",
      msg: "",
    });
    expect((await admin().get("/realm/linkifiers")).body.linkifiers.map((l: any) => l.id)).toEqual([b, a]);
    expect((await admin().delete(`/realm/filters/${b}`)).body).toEqual({ result: "success", msg: "" });
    expect((await admin().get("/realm/linkifiers")).body.linkifiers.map((l: any) => l.id)).toEqual([a]);
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    [
      "a bad regular expression",
      { pattern: "#(?P<id>[0-9+", url_template: "https://x.example/{id}" },
      "Bad regular expression: missing ]: [0-9+",
    ],
    [
      "a lookbehind (not linear-time)",
      { pattern: "(?<=#)(?P<id>[0-9]+)", url_template: "https://x.example/{id}" },
      "Bad regular expression: invalid perl operator: (?<=",
    ],
    [
      "a backreference",
      { pattern: "(?P<id>[a-z])(?P=id)", url_template: "https://x.example/{id}" },
      "Bad regular expression: invalid perl operator: (?P",
    ],
    [
      "an invalid URL template",
      { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example/{id" },
      "Invalid URL template.",
    ],
    [
      "a javascript: URL template",
      { pattern: "#(?P<id>[0-9]+)", url_template: "javascript:alert({id})" },
      "URL template must start with http:// or https:// and a host.",
    ],
    [
      "a scheme taken from the match",
      { pattern: "(?P<s>[a-z]+):(?P<id>[0-9]+)", url_template: "{s}://x.example/{id}" },
      "URL template must start with http:// or https:// and a host.",
    ],
    [
      "a template operator RFC 6570 reserves",
      { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example/{=id}" },
      "Invalid URL template.",
    ],
    [
      "a template variable the pattern lacks",
      { pattern: "#(?P<id>[0-9]+)", url_template: "https://x.example/{id}/{other}" },
      "Group 'other' in URL template is not present in linkifier pattern.",
    ],
    [
      "a pattern group the template lacks",
      { pattern: "(?P<org>[a-z]+)#(?P<id>[0-9]+)", url_template: "https://x.example/{id}" },
      "Group 'org' in linkifier pattern is not present in URL template.",
    ],
    [
      "an alternative template with an unknown group",
      { ...ISSUE, alternative_url_templates: ["https://x.example/{nope}"] },
      "Group 'nope' in alternative URL template is not present in linkifier pattern.",
    ],
    [
      "alternative templates that are not a list",
      { ...ISSUE, alternative_url_templates: "https://x.example/{id}" },
      'Argument "alternative_url_templates" is not valid JSON.',
    ],
    [
      "a reverse template without example input",
      { ...ISSUE, reverse_template: "#{id}" },
      "example_input is required when reverse_template is given.",
    ],
    [
      "an example input the pattern does not match",
      { ...ISSUE, example_input: "#12a" },
      "example_input '#12a' does not match the linkifier pattern.",
    ],
    [
      "a reverse template that does not round-trip",
      { ...ISSUE, example_input: "#1234", reverse_template: "issue {id}" },
      "Reverse template produces 'issue 1234' from example_input, not '#1234'.",
    ],
    [
      "a reverse template with an unknown group",
      { ...ISSUE, example_input: "#1234", reverse_template: "#{num}" },
      "Group 'num' in reverse template is not present in linkifier pattern.",
    ],
    ["an empty pattern", { pattern: "", url_template: "https://x.example/" }, "Linkifier pattern cannot be empty."],
  ];
  it.each(invalid)("refuses %s", async (_label, params, msg) => {
    const res = await admin().post("/realm/filters", params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: "error", code: "BAD_REQUEST", msg });
    expect(await rows()).toEqual([]);
  });

  it("accepts {{ and }} as literal braces in a reverse template", async () => {
    const res = await admin().post("/realm/filters", {
      pattern: "\\{(?P<id>[0-9]+)\\}",
      url_template: "https://x.example/{id}",
      example_input: "{12}",
      reverse_template: "{{{id}}}",
    });
    expect(res.body).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    expect(await rows()).toEqual([
      {
        pattern: "\\{(?P<id>[0-9]+)\\}",
        url_template: "https://x.example/{id}",
        example_input: "{12}",
        reverse_template: "{{{id}}}",
        sort_order: 0,
      },
    ]);
    // Read back through the API as stored, and the braces in the match reach the rendered link text.
    const listed = (await admin().get("/realm/linkifiers")).body.linkifiers;
    expect(listed).toEqual([
      {
        id: res.body.id,
        pattern: "\\{(?P<id>[0-9]+)\\}",
        url_template: "https://x.example/{id}",
        example_input: "{12}",
        reverse_template: "{{{id}}}",
        alternative_url_templates: [],
      },
    ]);
    expect(await send("see {12} here")).toBe('<p>see <a href="https://x.example/12">{12}</a> here</p>');
  });

  it("refuses a duplicate pattern, missing fields, unknown ids and non-administrators", async () => {
    await admin().post("/realm/filters", ISSUE);
    const before = await rows();
    const checks: [Promise<any>, number, string, string][] = [
      [admin().post("/realm/filters", ISSUE), 400, "BAD_REQUEST", "A linkifier with this pattern already exists."],
      [
        admin().post("/realm/filters", { pattern: ISSUE.pattern }),
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'url_template' argument",
      ],
      [admin().patch("/realm/filters/99999", ISSUE), 400, "BAD_REQUEST", "Linkifier not found."],
      [admin().delete("/realm/filters/99999"), 400, "BAD_REQUEST", "Linkifier not found."],
      [
        server.as(server.users.member).post("/realm/filters", { ...ISSUE, pattern: "X(?P<id>[0-9]+)" }),
        400,
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        server
          .as(server.users.moderator)
          .delete(`/realm/filters/${(await admin().get("/realm/linkifiers")).body.linkifiers[0].id}`),
        400,
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        server.as(server.users.member).patch("/realm/linkifiers", { ordered_linkifier_ids: [] }),
        400,
        "UNAUTHORIZED_PRINCIPAL",
        "Must be an organization administrator",
      ],
      [
        admin().patch("/realm/linkifiers", { ordered_linkifier_ids: [] }),
        400,
        "BAD_REQUEST",
        "The ordered list must enumerate all existing linkifiers exactly once",
      ],
      [
        admin().patch("/realm/linkifiers", { ordered_linkifier_ids: [1, 1] }),
        400,
        "BAD_REQUEST",
        "The ordered list must not contain duplicated linkifiers",
      ],
      [
        admin().patch("/realm/linkifiers", {}),
        400,
        "REQUEST_VARIABLE_MISSING",
        "Missing 'ordered_linkifier_ids' argument",
      ],
    ];
    for (const [request, status, code, msg] of checks) {
      const res = await request;
      expect([res.status, res.body]).toEqual([status, expect.objectContaining({ result: "error", code, msg })]);
    }
    expect(await rows()).toEqual(before);
  });
});

describe("rendering messages", () => {
  it("links matches in text, but not in code spans, code blocks or existing links", async () => {
    await admin().post("/realm/filters", ISSUE);
    const html = await send("Fixes #123, see `#45` and [#67](https://example.com/x) or (#89)x #90\n\n```\n#11\n```");
    expect(html).toContain('<a href="https://github.com/zulip/zulip/issues/123">#123</a>,');
    expect(html).toContain("<code>#45</code>");
    expect(html).toContain('<a href="https://example.com/x">#67</a>');
    expect(html).toContain('(<a href="https://github.com/zulip/zulip/issues/89">#89</a>)x');
    expect(html).toContain("issues/90");
    expect(html).toContain('<div class="codehilite"><pre><span></span><code>#11\n</code></pre></div>');
    expect(html).not.toContain("issues/45");
    expect(html).not.toContain("issues/11");
  });

  it("needs a boundary before and after a match, and applies linkifiers in their order", async () => {
    const a = (await admin().post("/realm/filters", ISSUE)).body.id;
    const b = (
      await admin().post("/realm/filters", {
        pattern: "(?P<repo>[a-z]+)#(?P<id>[0-9]+)",
        url_template: "https://git.example/{repo}/{id}",
      })
    ).body.id;
    expect(await send("abc#1 #2x #3")).toBe(
      '<p>abc#1 #2x <a href="https://github.com/zulip/zulip/issues/3">#3</a></p>'.replace(
        "abc#1",
        '<a href="https://git.example/abc/1">abc#1</a>',
      ),
    );
    await admin().patch("/realm/linkifiers", { ordered_linkifier_ids: [b, a] });
    expect(await send("zulip#7")).toContain('href="https://git.example/zulip/7"');
  });

  it("expands templates with RFC 6570 escaping", async () => {
    await admin().post("/realm/filters", {
      pattern: "ticket:(?P<name>[^ ]+)",
      url_template: "https://t.example/search{?name}",
    });
    expect(await send("see ticket:a&b")).toContain('href="https://t.example/search?name=a%26b"');
  });

  it("is safe against catastrophic backtracking patterns (RE2)", async () => {
    await admin().post("/realm/filters", { pattern: "(a+)+$", url_template: "https://x.example/a" });
    await admin().post("/realm/filters", { pattern: "(?P<x>(x+x+)+y)", url_template: "https://x.example/{x}" });
    const html = await send(`${"a".repeat(5000)}b ${"x".repeat(5000)}`);
    expect(html).toContain("aaaab");
    expect(html).not.toContain("href");
  }, 10000);
});

describe("clients", () => {
  it("zulip-js: filters.retrieve (legacy tuples) and callEndpoint for the rest", async () => {
    const client = await zulipJs(server, server.users.owner);
    const created = await client.callEndpoint("/realm/filters", "POST", {
      ...ISSUE,
      alternative_url_templates: ["https://github.com/zulip/zulip/pull/{id}"],
    });
    expect(created).toEqual({ result: "success", msg: "", id: expect.any(Number) });
    expect(await client.filters.retrieve()).toEqual({
      result: "success",
      msg: "",
      filters: [[ISSUE.pattern, ISSUE.url_template, created.id]],
    });
    const patched = await client.callEndpoint(`/realm/filters/${created.id}`, "PATCH", {
      pattern: "#(?P<id>[0-9]{2,})",
      url_template: ISSUE.url_template,
    });
    expect(patched).toEqual({ result: "success", msg: "" });
    const listed = await client.callEndpoint("/realm/linkifiers", "GET", {});
    expect(listed.linkifiers[0]).toMatchObject({ id: created.id, pattern: "#(?P<id>[0-9]{2,})" });
    // zulip-js puts PATCH parameters in the query string as-is, so JSON values are passed pre-encoded.
    expect(
      await client.callEndpoint("/realm/linkifiers", "PATCH", { ordered_linkifier_ids: JSON.stringify([created.id]) }),
    ).toEqual({ result: "success", msg: "" });
    expect(await client.callEndpoint(`/realm/filters/${created.id}`, "DELETE", {})).toEqual({
      result: "success",
      msg: "",
    });
    expect(await rows()).toEqual([]);
  });

  it("Python-client style form-encoded add_realm_filter / update / remove", async () => {
    const created = await admin().request("POST", "/realm/filters", ISSUE);
    expect(created.body).toMatchObject({ result: "success", id: expect.any(Number) });
    const updated = await admin().request("PATCH", `/realm/filters/${created.body.id}`, {
      ...ISSUE,
      url_template: "https://x.example/{id}",
    });
    expect(updated.body).toEqual({ result: "success", msg: "" });
    expect((await admin().request("DELETE", `/realm/filters/${created.body.id}`)).body).toEqual({
      result: "success",
      msg: "",
    });
  });
});
