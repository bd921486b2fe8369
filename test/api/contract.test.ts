// The HTTP contract shared by every endpoint: envelope, auth errors, parameter errors, body limits.
import http from "node:http";
import { ApiClient } from "../support/client";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MAX_BODY_BYTES: "2048" });
});
afterAll(async () => {
  await server.close();
});

const basic = (email: string, key: string) => "Basic " + Buffer.from(`${email}:${key}`).toString("base64");

describe("envelope", () => {
  it("answers an unknown route with a 404 envelope", async () => {
    const res = await server.as(server.users.member).get("/no/such/endpoint");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ result: "error", msg: "Endpoint not found", code: "NOT_FOUND" });
  });

  it("answers paths outside /api/v1 with the envelope too", async () => {
    const res = await fetch(`${server.url}/favicon.ico`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ result: "error", code: "NOT_FOUND" });
  });

  it("lists parameters the endpoint does not know in ignored_parameters_unsupported", async () => {
    const res = await server.as(server.users.member).get("/users/me", { bogus: "1", other_thing: "x" });
    expect(res.status).toBe(200);
    expect(res.body.ignored_parameters_unsupported).toEqual(["bogus", "other_thing"]);
  });

  it("carries a request id header", async () => {
    const res = await server.as(server.users.member).get("/users/me");
    expect(res.headers.get("x-request-id")).toMatch(/[0-9a-f-]{36}/);
  });
});

describe("authentication", () => {
  it("requires credentials", async () => {
    const res = await server.anonymous().get("/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      result: "error",
      code: "UNAUTHORIZED",
      msg: "Not logged in: API authentication or user session required",
    });
    expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
  });

  // As the reference's REST API (and the Python client's test_invalid_api_key): UNAUTHORIZED.
  it("rejects a malformed API key", async () => {
    const res = await new ApiClient(server.url, "member@test.example", "short").get("/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", code: "UNAUTHORIZED", msg: "Malformed API key" });
    expect(res.headers.get("www-authenticate")).toBe('Session realm="zulip"');
  });

  it("rejects an unknown API key", async () => {
    const res = await new ApiClient(server.url, "member@test.example", "a".repeat(32)).get("/users/me/subscriptions");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", code: "UNAUTHORIZED", msg: "Invalid API key" });
  });

  it("rejects a key presented with another user's email", async () => {
    const res = await new ApiClient(server.url, "owner@test.example", server.users.member.apiKey).get("/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ result: "error", code: "UNAUTHORIZED", msg: "Invalid API key" });
  });

  it("refuses incoming-webhook bots on the REST API", async () => {
    const res = await server.as(server.users.bot).get("/users/me");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "This API is not available to incoming webhook bots.",
    });
  });

  it("accepts a generic bot", async () => {
    const res = await server.as(server.users.genericBot).get("/users/me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: server.users.member.id });
  });

  it("refuses a deactivated user with USER_DEACTIVATED", async () => {
    await server.db("users").where({ id: server.users.other.id }).update({ is_active: false });
    try {
      const res = await server.as(server.users.other).get("/users/me");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ result: "error", code: "USER_DEACTIVATED", msg: "Account is deactivated" });
    } finally {
      await server.db("users").where({ id: server.users.other.id }).update({ is_active: true });
    }
  });

  it("refuses users of a deactivated organization with REALM_DEACTIVATED", async () => {
    await server.db("realms").where({ id: server.realm.id }).update({ deactivated: true });
    try {
      const res = await server.as(server.users.member).get("/users/me");
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        result: "error",
        code: "REALM_DEACTIVATED",
        msg: "This organization has been deactivated",
      });
    } finally {
      await server.db("realms").where({ id: server.realm.id }).update({ deactivated: false });
    }
  });

  it("refuses a key used on another organization's subdomain", async () => {
    // fetch() cannot set Host, so use node:http.
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get(
        `${server.url}/api/v1/users/me`,
        {
          headers: {
            authorization: basic(server.users.member.email, server.users.member.apiKey),
            host: "elsewhere.localhost",
          },
        },
        (r) => {
          let body = "";
          r.on("data", (c) => (body += c));
          r.on("end", () => resolve({ status: r.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({
      result: "error",
      code: "UNAUTHORIZED",
      msg: "Account is not associated with this subdomain",
    });
  });
});

describe("parameters", () => {
  it("names a missing parameter", async () => {
    const res = await server.as(server.users.member).post("/messages", { type: "stream", to: "general", topic: "t" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "REQUEST_VARIABLE_MISSING",
      msg: "Missing 'content' argument",
      var_name: "content",
    });
  });

  it("names a parameter with a wrong type", async () => {
    const res = await server
      .as(server.users.member)
      .get("/messages", { anchor: "newest", num_before: "ten", num_after: 0 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "num_before is not an integer",
      var_name: "num_before",
    });
  });

  it("names a parameter with malformed JSON", async () => {
    const res = await server.as(server.users.member).post("/register", { event_types: "[message" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: 'Argument "event_types" is not valid JSON.',
      var_name: "event_types",
    });
  });

  it("names a JSON parameter of the wrong shape", async () => {
    const res = await server.as(server.users.member).post("/register", { event_types: '{"a":1}' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "event_types is not a list of strings",
      var_name: "event_types",
    });
  });

  it("refuses a legacy alias given together with the current name", async () => {
    const res = await server
      .as(server.users.member)
      .post("/messages", { type: "stream", to: "general", topic: "a", subject: "b", content: "x" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "REQUEST_CONFUSING_VAR",
      msg: "Can't decide between 'topic' and 'subject' arguments",
    });
  });

  it("reads a JSON request body", async () => {
    const res = await server.as(server.users.member).request(
      "POST",
      "/messages",
      {},
      {
        rawBody: JSON.stringify({ type: "stream", to: "general", topic: "json", content: "from json" }),
        headers: { "content-type": "application/json" },
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
  });

  it("answers a malformed JSON body with INVALID_JSON", async () => {
    const res = await server
      .as(server.users.member)
      .request("POST", "/messages", {}, { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "INVALID_JSON", msg: "Malformed JSON" });
  });

  it("reads multipart bodies, as zulip-js sends every POST", async () => {
    const form = new FormData();
    form.append("type", "stream");
    form.append("to", "general");
    form.append("topic", "multipart");
    form.append("content", "sent as multipart");
    const res = await fetch(`${server.url}/api/v1/messages`, {
      method: "POST",
      headers: { authorization: basic(server.users.member.email, server.users.member.apiKey) },
      body: form,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number };
    const row = await server.db("messages").where({ id: body.id }).first();
    expect(row).toMatchObject({ topic: "multipart", content: "sent as multipart" });
  });

  it("reads DELETE parameters from the query string", async () => {
    const reg = await server.as(server.users.member).post("/register", { event_types: ["message"] });
    const res = await server
      .as(server.users.member)
      .request("DELETE", "/events", { queue_id: reg.body.queue_id }, { query: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: "" });
  });

  it("refuses an oversize body with a 413 envelope naming the limit", async () => {
    const res = await server
      .as(server.users.member)
      .post("/messages", { type: "stream", to: "general", topic: "big", content: "x".repeat(5000) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      result: "error",
      code: "REQUEST_TOO_LARGE",
      msg: "Request body is too large: the limit is 2048 bytes",
      limit: 2048,
    });
  });

  it("refuses a body that is not valid UTF-8", async () => {
    const raw = Buffer.concat([
      Buffer.from("type=stream&to=general&topic=t&content="),
      Buffer.from([0xff, 0xfe, 0x41]),
    ]);
    const res = await server
      .as(server.users.member)
      .request(
        "POST",
        "/messages",
        {},
        { rawBody: raw, headers: { "content-type": "application/x-www-form-urlencoded" } },
      );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: "error", code: "BAD_REQUEST", msg: "Request body is not valid UTF-8" });
  });

  it("refuses percent-encoded invalid UTF-8", async () => {
    const res = await server.as(server.users.member).request(
      "POST",
      "/messages",
      {},
      {
        rawBody: "type=stream&to=general&topic=t&content=%FF%FE",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Request body is not valid: bad percent-encoding or invalid UTF-8",
    });
  });

  it("refuses invalid UTF-8 in the query string", async () => {
    const res = await fetch(`${server.url}/api/v1/users/me?x=%C3%28`, {
      headers: { authorization: basic(server.users.member.email, server.users.member.apiKey) },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("BAD_REQUEST");
  });

  it("refuses a non-numeric path id", async () => {
    const res = await server.as(server.users.member).get("/messages/abc");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: "error",
      code: "BAD_REQUEST",
      msg: "Invalid message_id",
      var_name: "message_id",
    });
  });
});

describe("GET /server_settings", () => {
  it("answers without authentication, and with a wrong key", async () => {
    for (const client of [server.anonymous(), new ApiClient(server.url, "nobody@test.example", "b".repeat(32))]) {
      const res = await client.get("/server_settings");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        result: "success",
        zulip_feature_level: 507,
        realm_name: "Test Org",
        realm_url: "http://localhost:9991",
        push_notifications_enabled: false,
      });
      expect(typeof res.body.zulip_version).toBe("string");
      expect(res.body.authentication_methods).toHaveProperty("password");
    }
  });
});
