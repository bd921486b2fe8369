// The /integrations/ web page over plain HTTP (no browser): server-rendered HTML that works without
// JavaScript, its security and caching headers, static assets, and the fixtures it sends as tests.
import { startTestServer, type TestServer } from "../support/harness";

describe("/integrations/ web page (HTTP)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: "all" });
  });
  afterAll(() => server.close());

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers, redirect: "manual" });
  /** Card names in page order, and which of them are shown (not `hidden`). */
  const cards = (page: string) =>
    [...page.matchAll(/<li\s+class="card"[^>]*?(\shidden)?\s*>\s*<h2><a href="\/integrations\/([a-z0-9_]+)">/g)].map(
      (m) => ({ name: m[2], shown: !m[1] }),
    );

  it("lists every integration as a card, with a strict CSP and no caching", async () => {
    const res = await get("/integrations/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const page = await res.text();
    const listed = cards(page);
    expect(listed.map((c) => c.name)).toEqual(server.deps.integrations.names());
    expect(listed.every((c) => c.shown)).toBe(true);
    expect(page).toContain(`${listed.length} of ${listed.length} integrations`);
    expect(page).toContain("Prometheus Alertmanager");
    // No inline script or style (the CSP would block them).
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page).not.toMatch(/\sstyle=/);
  });

  it("filters by search words and category without JavaScript (query parameters)", async () => {
    const bySearch = cards(await (await get("/integrations/?q=GitHub")).text());
    // Every GitHub-named plugin (github, githubsponsors…) and nothing else.
    const shownBySearch = bySearch.filter((c) => c.shown).map((c) => c.name);
    expect(shownBySearch).toContain("github");
    expect(shownBySearch.every((name) => name.startsWith("github"))).toBe(true);
    const byWords = cards(await (await get("/integrations/?q=prometheus%20alert")).text());
    expect(byWords.filter((c) => c.shown).map((c) => c.name)).toEqual(["alertmanager"]);
    const financial = server.deps.integrations
      .all()
      .filter((i) => i.manifest.categories.includes("financial"))
      .map((i) => i.name);
    expect(financial.length).toBeGreaterThan(1);
    const page = await (await get("/integrations/?category=financial")).text();
    expect(
      cards(page)
        .filter((c) => c.shown)
        .map((c) => c.name),
    ).toEqual(financial);
    expect(page).toMatch(/<option value="financial"\s+selected\s*>/);
    const none = await (await get("/integrations/?q=no-such-service-anywhere")).text();
    expect(cards(none).some((c) => c.shown)).toBe(false);
    expect(none).toMatch(/<p id="none" class="none"\s*>/);
  });

  it("escapes the search text it echoes", async () => {
    const page = await (await get("/integrations/?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E")).text();
    expect(page).not.toContain("<script>alert(1)");
    expect(page).toContain("&quot;&gt;&lt;script&gt;");
  });

  it("redirects /integrations to /integrations/", async () => {
    const res = await get("/integrations?q=git");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/integrations/?q=git");
  });

  it("renders one integration: doc without raw HTML, events, URL options, the URL shape", async () => {
    const res = await get("/integrations/github");
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<h1>GitHub</h1>");
    // doc.md rendered by the server's Markdown renderer, with the server's URL filled in.
    expect(page).toContain("<h2>Setting it up</h2>");
    expect(page).toContain("http://localhost:9991/api/v1/external/github?api_key=BOT_API_KEY");
    expect(page).not.toContain("{{ api_url }}");
    expect(page).toContain("<code>pull_request.opened</code>");
    expect(page).toContain("<code>ignore_private_repositories</code>");
    expect(page).toContain('data-base="http://localhost:9991/api/v1/external/github"');
    expect(page).toMatch(/<option value="push__[a-z_]+">/);
  });

  it("answers an unknown integration with a 404 page", async () => {
    const res = await get("/integrations/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("No such integration");
  });

  it("serves the script and stylesheet with their types, long caching for the hashed URL, and ETags", async () => {
    const page = await (await get("/integrations/")).text();
    const js = /<script src="([^"]+)"/.exec(page)![1];
    const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page)![1];
    expect(js).toMatch(/^\/integrations\/static\/catalogue\.js\?v=[0-9a-f]{16}$/);
    const script = await get(js);
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await script.text()).toContain("sessionStorage");
    const style = await get(css);
    expect(style.headers.get("content-type")).toBe("text/css; charset=utf-8");
    // Without the current hash: revalidate; with the ETag: 304.
    const bare = await get("/integrations/static/catalogue.js");
    expect(bare.headers.get("cache-control")).toBe("no-cache");
    const etag = bare.headers.get("etag")!;
    expect((await get("/integrations/static/catalogue.js", { "if-none-match": etag })).status).toBe(304);
    const missing = await get("/integrations/static/nope.js");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).code).toBe("NOT_FOUND");
  });

  it("serves the fixtures the page sends as test deliveries", async () => {
    const res = await get("/integrations/helloworld/fixtures/hello");
    expect(res.status).toBe(200);
    const { fixture } = (await res.json()) as any;
    expect(fixture.name).toBe("hello");
    expect(fixture.body_encoding).toBe("utf8");
    expect(JSON.parse(fixture.body)).toMatchObject({ featured_title: "Lighthouse of Alexandria" });
    expect(fixture.headers["Content-Type"]).toBe("application/json");
    const missing = await get("/integrations/helloworld/fixtures/..%2F..%2Fpackage");
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).code).toBe("NOT_FOUND");
  });
});
