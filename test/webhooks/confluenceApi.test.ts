// Confluence Server / Data Center API lookups (manifest `api.hostOption: "base_url"`): with the
// owner's personal access token the message shows the page's title, space, version and the
// person's name from the site the owner named, under its path prefix; the token goes only there.
// The site is the owner's choice, so the server refuses http, user info and every non-public
// address (IP literals, and names resolving to one, checked where the socket resolves them) unless
// the operator allows them; a refused site makes no connection (a real local listener records
// connections to prove it), logs a warning without the token, and the message is the payload-only one.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import nock from "nock";
import { API_LOOKUP_TIMEOUT_MS } from "../../src/limits";
import { startTestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const PLUGIN = path.join(__dirname, "..", "..", "integrations", "confluence");
const fixture = (name: string) => fs.readFileSync(path.join(PLUGIN, "fixtures", `${name}.json`));
const answer = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(PLUGIN, "api_responses", `${name}.json`), "utf8"));
const expected = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(PLUGIN, "fixtures", `${name}.expected.json`), "utf8")) as {
    topic: string;
    content: string;
  };

const SITE = "https://docs.tidewater.example";
const BASE_URL = `${SITE}/confluence`;
const TOKEN = "NjQ3MTE4OTk0NTQ2OkTIDEWATERPAT";
const LENA = "ff8080817c2b1a3e017c2b1c9a5d0001";
const OSKAR = "ff8080817c2b1a3e017c2b1c9a5d0002";
const oskar = {
  ...answer("user"),
  username: "olindqvist",
  userKey: OSKAR,
  displayName: "Oskar Lindqvist",
  _links: { base: BASE_URL, context: "/confluence", webui: "/display/~olindqvist" },
};
const WHEN = "* **When:** <time:2026-12-09T13:20:00Z>";

/** A TCP listener on loopback that counts the connections it is offered (and closes them). */
async function connectionCounter(host: "127.0.0.1" | "::1") {
  const seen: string[] = [];
  const server = net.createServer((socket) => {
    seen.push(socket.remoteAddress ?? "?");
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// The harness allows loopback connections by name and IPv4; the IPv6 loopback is added so that
// nothing but the server's own policy stands between a lookup and the listeners.
const LOOPBACK = /^(127\.0\.0\.1|localhost|\[?::1\]?|\[?::ffff:127\.0\.0\.1\]?)(:\d+)?$/;
beforeAll(() => nock.enableNetConnect(LOOPBACK));
afterAll(() => nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/));
afterEach(() => nock.cleanAll());

async function boot(env: Record<string, string> = {}) {
  const logLines: string[] = [];
  const server = await startTestServer(
    { LOG_LEVEL: "debug", ...env },
    { integrations: ["confluence"], logDestination: { write: (line: string) => logLines.push(line) } },
  );
  const post = async (body: Buffer, query: Record<string, string | undefined>) => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "confluence", { body, query: { stream: "general", ...query } });
    expect([res.status, res.body.result]).toEqual([200, "success"]);
    return (await messagesSince(server, before, server.users.bot.id)).map((m) => [m.topic, m.content]);
  };
  return { server, logLines, post };
}

describe("Confluence API lookups on a public site", () => {
  let ctx: Awaited<ReturnType<typeof boot>>;
  beforeAll(async () => {
    ctx = await boot();
  });
  afterAll(() => ctx.server.close());

  it("renders the page's title, space, version and the person, asking under base_url's path with the token", async () => {
    const api = nock(SITE, { reqheaders: { authorization: `Bearer ${TOKEN}`, accept: "application/json" } });
    const page = api
      .get("/confluence/rest/api/content/40117")
      .query({ expand: "space,version" })
      .reply(200, answer("page"));
    const user = api.get("/confluence/rest/api/user").query({ key: LENA }).reply(200, answer("user"));
    const stored = await ctx.post(fixture("page_updated"), { base_url: `${BASE_URL}/`, token: TOKEN });
    expect(page.isDone() && user.isDone()).toBe(true);
    expect(stored).toEqual([
      [
        "Tide tables for the north harbour",
        ":pencil: Page [Tide tables for the north harbour](https://docs.tidewater.example/confluence/display/HARB/Tide+tables+for+the+north+harbour) " +
          "was **updated** by [Lena Kowalczyk](https://docs.tidewater.example/confluence/display/~lkowalczyk).\n" +
          "* **Space:** [Harbour Operations](https://docs.tidewater.example/confluence/display/HARB)\n" +
          "* **Version:** 14 by Lena Kowalczyk\n" +
          WHEN,
      ],
    ]);
    // The token is in no log line and no delivery-log row.
    expect(ctx.logLines.join("\n")).not.toContain(TOKEN);
    await ctx.server.deps.webhookOps.log.idle();
    const rows = await ctx.server.db("webhook_deliveries").select();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
  });

  it("names the page a comment is on, and the previous parent of a moved page", async () => {
    nock(SITE)
      .get("/confluence/rest/api/content/60330")
      .query({ expand: "space,version,container" })
      .reply(200, answer("comment"));
    nock(SITE).get("/confluence/rest/api/user").query({ key: LENA }).reply(200, answer("user"));
    expect(await ctx.post(fixture("comment_created"), { base_url: BASE_URL, token: TOKEN })).toEqual([
      [
        "Tide tables for the north harbour",
        ":speech_balloon: Comment [60330](https://docs.tidewater.example/confluence/display/HARB/Tide+tables+for+the+north+harbour?focusedCommentId=60330#comment-60330) " +
          "on [Tide tables for the north harbour](https://docs.tidewater.example/confluence/display/HARB/Tide+tables+for+the+north+harbour) " +
          "was **added** by [Lena Kowalczyk](https://docs.tidewater.example/confluence/display/~lkowalczyk).\n" +
          "* **Space:** [Harbour Operations](https://docs.tidewater.example/confluence/display/HARB)\n" +
          "* **Version:** 1 by Oskar Lindqvist\n" +
          WHEN,
      ],
    ]);

    const moved = { ...answer("page"), id: "40119", title: "Mooring fees" };
    moved._links = { ...moved._links, webui: "/display/HARB/Mooring+fees" };
    nock(SITE).get("/confluence/rest/api/content/40119").query(true).reply(200, moved);
    nock(SITE).get("/confluence/rest/api/content/40001").reply(200, answer("parent"));
    nock(SITE).get("/confluence/rest/api/user").query({ key: OSKAR }).reply(200, oskar);
    const [[topic, content]] = await ctx.post(fixture("page_moved"), { base_url: BASE_URL, token: TOKEN });
    expect(topic).toBe("Mooring fees");
    expect(content).toContain(
      ":truck: Page [Mooring fees](https://docs.tidewater.example/confluence/display/HARB/Mooring+fees) was **moved** by " +
        "[Oskar Lindqvist](https://docs.tidewater.example/confluence/display/~olindqvist).",
    );
    expect(content).toContain(
      "* **Previous parent:** [Harbour handbook](https://docs.tidewater.example/confluence/display/HARB/Harbour+handbook)",
    );
  });

  it("shows a title and a name from the API as text, never as Markdown or mentions", async () => {
    const hostile = "@**all** [pay here](https://collector.example) `x`";
    nock(SITE)
      .get("/confluence/rest/api/content/40117")
      .query(true)
      .reply(200, { ...answer("page"), title: hostile, space: { name: "@*everyone*" } });
    nock(SITE)
      .get("/confluence/rest/api/user")
      .query(true)
      .reply(200, { ...answer("user"), displayName: "[Lena](https://collector.example)" });
    const [[, content]] = await ctx.post(fixture("page_updated"), { base_url: BASE_URL, token: TOKEN });
    expect(content).not.toContain("@**all**");
    expect(content).not.toContain("@*everyone*");
    // Brackets escaped: no link of the answer's own (only the site's links are links).
    expect(content).not.toMatch(/(?<!\\)\]\(https:\/\/collector/);
    expect(content).toContain("\\[pay here\\](https://collector.example)");
  });

  it("makes no request without a token, or without base_url, and posts exactly the payload-only message", async () => {
    const trap = nock(SITE).get(/.*/).reply(200, answer("page"));
    const { topic, content } = expected("page_updated__with_base_url");
    expect(await ctx.post(fixture("page_updated"), { base_url: "https://docs.tidewater.example/" })).toEqual([
      [topic, content],
    ]);
    const plain = expected("blog_created");
    expect(await ctx.post(fixture("blog_created"), { token: TOKEN })).toEqual([[plain.topic, plain.content]]);
    expect(trap.isDone()).toBe(false);
  });

  it("falls back to the payload alone when the content answers 404 (each lookup stands alone)", async () => {
    nock(SITE).get("/rest/api/content/40117").query(true).reply(404, { statusCode: 404, message: "No content" });
    nock(SITE).get("/rest/api/user").query(true).reply(404, { statusCode: 404 });
    const { topic, content } = expected("page_updated__with_base_url");
    expect(
      await ctx.post(fixture("page_updated"), { base_url: "https://docs.tidewater.example/", token: TOKEN }),
    ).toEqual([[topic, content]]);
    // The content is not found but the person is: the person's name, the page's id.
    nock(SITE).get("/rest/api/content/50221").query(true).reply(404, {});
    nock(SITE).get("/rest/api/user").query({ key: LENA }).reply(200, answer("user"));
    expect(await ctx.post(fixture("blog_created"), { base_url: SITE, token: TOKEN })).toEqual([
      [
        "Blog post 50221",
        ":new: Blog post [50221](https://docs.tidewater.example/pages/viewpage.action?pageId=50221) was **created** by " +
          "[Lena Kowalczyk](https://docs.tidewater.example/confluence/display/~lkowalczyk).\n" +
          WHEN,
      ],
    ]);
  });

  it("does not follow a redirect, even to the same site", async () => {
    const moved = nock(SITE)
      .get("/confluence/rest/api/content/40117")
      .query(true)
      .reply(302, "", { location: "https://collector.example/steal" });
    const elsewhere = nock("https://collector.example").get(/.*/).reply(200, answer("page"));
    nock(SITE)
      .get("/confluence/rest/api/user")
      .query(true)
      .reply(301, "", { location: `${BASE_URL}/rest/api/user/x` });
    const [[topic, content]] = await ctx.post(fixture("page_updated"), { base_url: BASE_URL, token: TOKEN });
    expect(moved.isDone()).toBe(true);
    expect(elsewhere.isDone()).toBe(false);
    expect([topic, content]).toEqual([
      "Page 40117",
      ":pencil: Page [40117](https://docs.tidewater.example/confluence/pages/viewpage.action?pageId=40117) was **updated** " +
        `by user \`${LENA}\`.\n${WHEN}`,
    ]);
  });

  it(`gives up after API_LOOKUP_TIMEOUT_MS (${API_LOOKUP_TIMEOUT_MS} ms) and posts the payload alone`, async () => {
    nock(SITE)
      .get("/rest/api/content/40117")
      .query(true)
      .delay(API_LOOKUP_TIMEOUT_MS + 2000)
      .reply(200, answer("page"));
    nock(SITE)
      .get("/rest/api/user")
      .query(true)
      .delay(API_LOOKUP_TIMEOUT_MS + 2000)
      .reply(200, answer("user"));
    const started = Date.now();
    const { topic, content } = expected("page_updated__with_base_url");
    expect(
      await ctx.post(fixture("page_updated"), { base_url: "https://docs.tidewater.example/", token: TOKEN }),
    ).toEqual([[topic, content]]);
    expect(Date.now() - started).toBeLessThan(API_LOOKUP_TIMEOUT_MS + 1500);
  }, 20_000);

  describe("refuses a site that is not public https, connecting nowhere", () => {
    let v4: Awaited<ReturnType<typeof connectionCounter>>;
    let v6: Awaited<ReturnType<typeof connectionCounter>>;
    beforeAll(async () => {
      [v4, v6] = await Promise.all([connectionCounter("127.0.0.1"), connectionCounter("::1")]);
    });
    afterAll(() => Promise.all([v4.close(), v6.close()]));

    const cases: [string, () => string, string][] = [
      ["http", () => `http://127.0.0.1:${v4.port}`, "http is not allowed"],
      ["a loopback literal", () => `https://127.0.0.1:${v4.port}/confluence`, "not a public address"],
      [
        "a name resolving to 127.0.0.1",
        () => `https://localhost:${v4.port}`,
        "resolves to an address that is not public",
      ],
      ["the IPv6 loopback", () => `https://[::1]:${v6.port}`, "not a public address"],
      ["IPv4 loopback written as IPv6", () => `https://[::ffff:127.0.0.1]:${v4.port}`, "not a public address"],
      ["user info", () => `https://wiki:pw@127.0.0.1:${v4.port}`, "the URL has user info"],
    ];
    it.each(cases)("%s", async (_what, baseUrl, reason) => {
      const lines = ctx.logLines.length;
      const withoutToken = await ctx.post(fixture("page_updated"), { base_url: baseUrl() });
      expect(await ctx.post(fixture("page_updated"), { base_url: baseUrl(), token: TOKEN })).toEqual(withoutToken);
      expect([v4.seen, v6.seen]).toEqual([[], []]);
      const warnings = ctx.logLines.slice(lines).filter((l) => l.includes("API lookup not made"));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0])).toMatchObject({
        level: 40,
        integration: "confluence",
        reason: expect.stringContaining(reason),
      });
      expect(warnings[0]).not.toContain(TOKEN);
    });

    it.each([
      ["the cloud metadata address", "https://169.254.169.254"],
      ["a private 10.x address", "https://10.20.0.5/confluence"],
      ["a shared (CGNAT) address", "https://100.64.1.1"],
      ["an IPv6 unique-local address", "https://[fd12:3456::7]"],
    ])("%s (a stub there stays unasked)", async (_what, baseUrl) => {
      const trap = nock(new URL(baseUrl).origin).get(/.*/).reply(200, answer("page"));
      const withoutToken = await ctx.post(fixture("page_updated"), { base_url: baseUrl });
      expect(await ctx.post(fixture("page_updated"), { base_url: baseUrl, token: TOKEN })).toEqual(withoutToken);
      expect(trap.isDone()).toBe(false);
    });
  });
});

describe("Confluence API lookups on a private site the operator allows", () => {
  let ctx: Awaited<ReturnType<typeof boot>>;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  let site: http.Server;
  let sitePort = 0;
  const asked: { url?: string; authorization?: string }[] = [];
  beforeAll(async () => {
    counter = await connectionCounter("127.0.0.1");
    // An on-premises Confluence over plain http on the private network (here: loopback).
    site = http.createServer((req, res) => {
      asked.push({ url: req.url, authorization: req.headers.authorization });
      const base = `http://127.0.0.1:${sitePort}/wiki`;
      const url = new URL(req.url ?? "/", base);
      const body =
        url.pathname === "/wiki/rest/api/content/40117"
          ? { ...answer("page"), _links: { ...answer("page")._links, base } }
          : url.pathname === "/wiki/rest/api/user" && url.searchParams.get("key") === LENA
            ? { ...answer("user"), _links: { ...answer("user")._links, base } }
            : undefined;
      res.writeHead(body ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(body ?? { statusCode: 404 }));
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    sitePort = (site.address() as net.AddressInfo).port;
    ctx = await boot({
      API_LOOKUP_ALLOWED_NETWORKS: "127.0.0.0/8, 10.20.0.0/16",
      API_LOOKUP_ALLOWED_HOSTS: "wiki.harbour.internal",
      API_LOOKUP_ALLOW_HTTP: "true",
    });
  });
  afterAll(async () => {
    await ctx.server.close();
    await counter.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it("asks a real http site on an allowed network, under its path, with the token", async () => {
    const [[topic, content]] = await ctx.post(fixture("page_updated"), {
      base_url: `http://127.0.0.1:${sitePort}/wiki/`,
      token: TOKEN,
    });
    expect(asked.map((a) => [a.url, a.authorization])).toEqual(
      expect.arrayContaining([
        ["/wiki/rest/api/content/40117?expand=space,version", `Bearer ${TOKEN}`],
        [`/wiki/rest/api/user?key=${LENA}`, `Bearer ${TOKEN}`],
      ]),
    );
    expect(topic).toBe("Tide tables for the north harbour");
    expect(content).toContain(
      `:pencil: Page [Tide tables for the north harbour](http://127.0.0.1:${sitePort}/wiki/display/HARB/Tide+tables+for+the+north+harbour) ` +
        `was **updated** by [Lena Kowalczyk](http://127.0.0.1:${sitePort}/wiki/display/~lkowalczyk).`,
    );
  });

  it("connects to an allowed network by name and by address (a loopback listener sees it)", async () => {
    await ctx.post(fixture("page_updated"), { base_url: `https://localhost:${counter.port}`, token: TOKEN });
    await ctx.post(fixture("page_updated"), { base_url: `https://127.0.0.1:${counter.port}`, token: TOKEN });
    // Two lookups (content, person) per delivery; the TLS handshake then fails: payload only.
    expect(counter.seen.length).toBe(4);
  });

  it("lets a private 10.x address through when its network is allowed", async () => {
    const page = nock("https://10.20.0.5")
      .get("/confluence/rest/api/content/40117")
      .query(true)
      .reply(200, answer("page"));
    nock("https://10.20.0.5").get("/confluence/rest/api/user").query(true).reply(200, answer("user"));
    const [[topic]] = await ctx.post(fixture("page_updated"), {
      base_url: "https://10.20.0.5/confluence",
      token: TOKEN,
    });
    expect(page.isDone()).toBe(true);
    expect(topic).toBe("Tide tables for the north harbour");
    // 10.21.x is outside the allowed /16.
    const trap = nock("https://10.21.0.5").get(/.*/).reply(200, answer("page"));
    const [[other]] = await ctx.post(fixture("page_updated"), { base_url: "https://10.21.0.5", token: TOKEN });
    expect([trap.isDone(), other]).toEqual([false, "Page 40117"]);
  });
});

describe("Confluence API lookups with an allowed host name", () => {
  let ctx: Awaited<ReturnType<typeof boot>>;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  beforeAll(async () => {
    counter = await connectionCounter("127.0.0.1");
    ctx = await boot({ API_LOOKUP_ALLOWED_HOSTS: "localhost" });
  });
  afterAll(async () => {
    await ctx.server.close();
    await counter.close();
  });

  it("lets that name resolve to a private address, and no other name or literal", async () => {
    await ctx.post(fixture("page_updated"), { base_url: `https://localhost:${counter.port}`, token: TOKEN });
    expect(counter.seen.length).toBe(2);
    await ctx.post(fixture("page_updated"), { base_url: `https://127.0.0.1:${counter.port}`, token: TOKEN });
    expect(counter.seen.length).toBe(2);
  });
});

const SHARED = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "confluence");
(fs.existsSync(SHARED) ? describe : describe.skip)("Confluence: the shared corpus' API answers", () => {
  let ctx: Awaited<ReturnType<typeof boot>>;
  beforeAll(async () => {
    ctx = await boot();
  });
  afterAll(() => ctx.server.close());
  const shared = (...parts: string[]) => fs.readFileSync(path.join(SHARED, ...parts));
  const sharedJson = (name: string) => JSON.parse(shared("api_responses", name).toString());
  // (describe.skip still runs this body: read the index only when the corpus is there.)
  const cases = (fs.existsSync(SHARED) ? JSON.parse(shared("index.json").toString()) : []) as {
    fixture: string;
    query: Record<string, string>;
  }[];
  const site = (query: Record<string, string>) => new URL(query.base_url).origin;

  it("renders the page's title and link and the person's name (page_updated)", async () => {
    const c = cases.find((x) => x.fixture === "page_updated.json")!;
    const page = sharedJson("page_api_response.json");
    const user = sharedJson("user_api_response.json");
    const body = JSON.parse(shared(c.fixture).toString());
    nock(site(c.query)).get(`/rest/api/content/${body.page.id}`).query(true).reply(200, page);
    nock(site(c.query)).get("/rest/api/user").query({ key: body.userKey }).reply(200, user);
    const [[topic, content]] = await ctx.post(shared(c.fixture), c.query);
    expect(topic).toBe(page.title);
    expect(content).toContain(`[${page.title}](${page._links.base}${page._links.webui})`);
    expect(content).toContain(`by ${user.displayName}`);
    expect(content).toContain(`* **Space:** [${page.space.name}](`);
  });

  it.each(cases.filter((c) => c.fixture.includes("--content_api_404")).map((c) => [c.fixture, c] as const))(
    "%s: the content answers 404, the message says what the payload says",
    async (_name, c) => {
      const body = JSON.parse(shared(c.fixture).toString());
      const id = body.page?.id ?? body.blog?.id ?? body.comment?.id;
      nock(site(c.query)).get(`/rest/api/content/${id}`).query(true).reply(404, {});
      if (body.oldParent) nock(site(c.query)).get(`/rest/api/content/${body.oldParent.id}`).reply(404, {});
      nock(site(c.query)).get("/rest/api/user").query(true).reply(200, sharedJson("user_api_response.json"));
      const [[topic, content]] = await ctx.post(shared(c.fixture), c.query);
      expect(topic).toMatch(new RegExp(`^(Page|Blog post|Comment) ${id}$`));
      expect(content).toContain(`${id}`);
    },
  );
});
