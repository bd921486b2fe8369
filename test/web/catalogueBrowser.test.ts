// The /integrations/ page in a real browser (Debian's Chromium through playwright-core), against the
// real app and database: search, category filter, the URL builder (by mouse and keyboard only),
// and screenshots (desktop and 390 px phone width) under test-output/screenshots/.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium, inCi, launchChromium, screenshotPath, CHROMIUM } from "../support/browser";
import { startTestServer, type TestServer } from "../support/harness";

// Browser globals used inside page.evaluate callbacks (this project compiles without the DOM lib).
declare const document: any, navigator: any, sessionStorage: any, getComputedStyle: any;

const run = hasChromium || inCi;
const suite = run ? describe : describe.skip;
if (!run) {
  console.warn(`Browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
  it.skip(`browser tests (skipped: ${CHROMIUM} not found)`, () => undefined);
}

suite("/integrations/ page in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run installs it with apt`);
    server = await startTestServer({}, { integrations: "all" });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
    page.setDefaultTimeout(5000);
    // Any script error or CSP violation on the page fails the test.
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    (page as any).problems = problems;
  });
  afterEach(async () => {
    const problems: string[] = (page as any).problems;
    await context.close();
    expect(problems).toEqual([]);
  });

  const visibleCards = (p: Page) =>
    p.$$eval("#cards .card:not([hidden]) h2 a", (links) => links.map((a) => a.getAttribute("href")));
  const allNames = () => server.deps.integrations.names().map((n) => `/integrations/${n}`);

  it("filters the list instantly as the user types and picks a category", async () => {
    await page.goto(`${server.url}/integrations/`);
    expect(await visibleCards(page)).toEqual(allNames());
    await page.screenshot({ path: screenshotPath("list-desktop"), fullPage: false });

    await page.fill("#q", "git");
    const git = await visibleCards(page);
    expect(git).toEqual(
      server.deps.integrations
        .all()
        .filter((i) => [i.name, i.manifest.displayName, i.manifest.description].join(" ").toLowerCase().includes("git"))
        .map((i) => `/integrations/${i.name}`),
    );
    expect(git).toEqual(expect.arrayContaining(["/integrations/github", "/integrations/gitlab"]));
    expect(await page.textContent("#count")).toBe(`${git.length} of ${allNames().length} integrations`);
    expect(page.url()).toBe(`${server.url}/integrations/?q=git`);

    await page.selectOption("#category", "continuous-integration");
    const ci = await visibleCards(page);
    expect(ci).toContain("/integrations/gitlab");
    expect(ci).not.toContain("/integrations/github");
    expect(page.url()).toBe(`${server.url}/integrations/?q=git&category=continuous-integration`);

    await page.fill("#q", "zzzz-nothing");
    expect(await visibleCards(page)).toEqual([]);
    expect(await page.isVisible("#none")).toBe(true);
    // The filtered URL reloads to the same view, server-rendered.
    await page.goto(`${server.url}/integrations/?q=alert&category=monitoring`);
    expect(await page.inputValue("#q")).toBe("alert");
    expect(await visibleCards(page)).toContain("/integrations/alertmanager");
  });

  it("works without JavaScript: the search form submits as query parameters", async () => {
    await context.close();
    context = await browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
    (page as any).problems = [];
    await page.goto(`${server.url}/integrations/`);
    await page.fill("#q", "stripe");
    await page.click("button[type=submit]");
    await page.waitForURL(/q=stripe/);
    expect(await visibleCards(page)).toEqual(["/integrations/stripe"]);
    await page.goto(`${server.url}/integrations/github`);
    expect(await page.isVisible("#builder")).toBe(false);
    expect(await page.textContent("noscript")).toContain("api_key=BOT_API_KEY&stream=CHANNEL");
  });

  it("builds the exact webhook URL, lists the owner's channels and copies the URL", async () => {
    const { owner, bot } = server.users;
    await page.goto(`${server.url}/integrations/github`);
    await page.fill("#bot_key", bot.apiKey);
    await page.fill("#owner_email", owner.email);
    await page.fill("#owner_key", owner.apiKey);
    await page.click("#load_channels");
    await page.waitForSelector("#channel-pick-field:not([hidden])");
    expect(await page.textContent("#channels-status")).toBe('1 channel listed under "Your channels".');
    await page.selectOption("#channel_pick", "general");
    await page.fill("#topic", "Builds & PRs");
    await page.check("input[name=event_mode][value=only]");
    await page.check("input[name=event][value=push]");
    await page.check("input[name=event][value=pull_request]");
    await page.fill("#opt-branches", "main,release/*");
    const expected =
      `http://localhost:9991/api/v1/external/github?api_key=${bot.apiKey}&stream=general` +
      "&topic=Builds%20%26%20PRs&only_events=push,pull_request&branches=main,release%2F*";
    expect(await page.inputValue("#url")).toBe(expected);

    await page.click("#copy");
    expect(await statusText(page, "copy-status")).toBe("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);

    // The keys stay in the tab's session storage, and come back on the next page of the tab.
    await page.goto(`${server.url}/integrations/helloworld`);
    expect(await page.inputValue("#bot_key")).toBe(bot.apiKey);
    expect(await page.evaluate(() => Object.keys(sessionStorage).sort())).toEqual([
      "sb.bot_key",
      "sb.owner_email",
      "sb.owner_key",
    ]);
    await page.click("#forget");
    expect(await page.inputValue("#bot_key")).toBe("");
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it("sends a test delivery through the preview endpoint and shows the rendered message", async () => {
    const { owner } = server.users;
    await page.goto(`${server.url}/integrations/helloworld`);
    await page.fill("#owner_email", owner.email);
    await page.fill("#owner_key", owner.apiKey);
    await page.fill("#topic", "Greetings");
    await page.selectOption("#fixture", "hello");
    await page.click("#send_test");
    await page.waitForSelector("#test-result .message");
    expect(await page.textContent("#test-result .outcome")).toBe("Would post 1 message:");
    expect(await page.textContent("#test-result .topic")).toBe("Topic: Greetings");
    const link = page.locator("#test-result .rendered a");
    expect(await link.textContent()).toBe("Lighthouse of Alexandria");
    expect(await link.getAttribute("href")).toBe("https://en.wikipedia.org/wiki/Lighthouse_of_Alexandria");
    await page.screenshot({ path: screenshotPath("test-delivery"), fullPage: false });
    // Nothing was posted: the preview only renders.
    const posted = await server.as(owner).get("/messages", { anchor: "newest", num_before: 5, num_after: 0 });
    expect((posted.body.messages as any[]).some((m) => m.content.includes("Lighthouse"))).toBe(false);
  });

  it("lists the bot's deliveries and replays one", async () => {
    const { owner, bot } = server.users;
    const hook = `${server.url}/api/v1/external/helloworld?api_key=${bot.apiKey}&stream=general`;
    const sent = await fetch(hook, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ featured_title: "Pharos", featured_url: "https://example.com/pharos" }),
    });
    expect(sent.status).toBe(200);
    await page.goto(`${server.url}/integrations/deliveries?integration=helloworld`);
    await page.fill("#owner_email", owner.email);
    await page.fill("#owner_key", owner.apiKey);
    await page.click("#load_deliveries");
    await page.waitForSelector("#deliveries tbody tr");
    const rows = page.locator("#deliveries tbody tr");
    await expect(rows.count()).resolves.toBeGreaterThanOrEqual(1);
    expect(await rows.first().locator(".outcome").textContent()).toBe("message");
    expect(await page.inputValue("#integration")).toBe("helloworld");
    const count = await rows.count();
    await rows.first().locator("button").click();
    await page.waitForFunction((n) => document.querySelectorAll("#deliveries tbody tr").length === n + 1, count);
    expect(await rows.first().textContent()).toMatch(/replay of \d+/);
    expect(await statusText(page, "deliveries-status")).toMatch(/^Replayed delivery \d+: message\./);
    await page.screenshot({ path: screenshotPath("deliveries"), fullPage: false });
    const posted = await server.as(owner).get("/messages", { anchor: "newest", num_before: 5, num_after: 0 });
    expect((posted.body.messages as any[]).filter((m) => m.content.includes("Pharos")).length).toBe(2);
  });

  it("reports a wrong owner key without listing channels", async () => {
    await page.goto(`${server.url}/integrations/helloworld`);
    await page.fill("#owner_email", server.users.owner.email);
    await page.fill("#owner_key", "not-the-key");
    await page.click("#load_channels");
    expect(await statusText(page, "channels-status")).toMatch(/^Could not list your channels: .*\(UNAUTHORIZED\)$/);
    expect(await page.isVisible("#channel-pick-field")).toBe(false);
    // The browser logs the refused request itself; that one is expected.
    const problems: string[] = (page as any).problems;
    (page as any).problems = problems.filter((p) => !p.includes("status of 401"));
  });

  /** The text of a status region once the page has written one. */
  async function statusText(p: Page, id: string): Promise<string> {
    await p.waitForFunction((target) => document.getElementById(target).textContent !== "", id);
    return (await p.textContent(`#${id}`))!;
  }

  /** Presses Tab until the element with this id has focus (fails if it is not reachable). */
  async function tabTo(p: Page, id: string): Promise<void> {
    for (let i = 0; i < 80; i++) {
      await p.keyboard.press("Tab");
      if (await p.evaluate((target) => document.activeElement?.id === target, id)) return;
    }
    throw new Error(`#${id} is not reachable with the Tab key`);
  }

  it("can be operated with the keyboard only, with a visible focus ring", async () => {
    await page.goto(`${server.url}/integrations/alertmanager`);
    await tabTo(page, "bot_key");
    // The focused field shows an outline (:focus-visible), not just the browser's default.
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe("solid");
    await page.keyboard.type("KEY123");
    await tabTo(page, "stream");
    await page.keyboard.type("#alerts");
    await tabTo(page, "topic");
    await page.keyboard.type("prod");
    // Events: the radio group is one Tab stop; arrow keys move the choice.
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.value)).toBe("all");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement.value)).toBe("only");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement.value)).toBe("firing");
    await page.keyboard.press("Space");
    await tabTo(page, "opt-name");
    await page.keyboard.type("job");
    expect(await page.inputValue("#url")).toBe(
      "http://localhost:9991/api/v1/external/alertmanager?api_key=KEY123&stream=alerts&topic=prod" +
        "&only_events=firing&name=job",
    );
    await tabTo(page, "copy");
    await page.keyboard.press("Enter");
    expect(await statusText(page, "copy-status")).toBe("Copied.");
    await page.screenshot({ path: screenshotPath("builder-keyboard"), fullPage: false });
  });

  it("is readable on a 390 px wide phone", async () => {
    await context.close();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    page = await context.newPage();
    (page as any).problems = [];
    for (const [name, path] of [
      ["list", "/integrations/"],
      ["github", "/integrations/github"],
    ]) {
      await page.goto(`${server.url}${path}`);
      // Nothing wider than the screen: no sideways scrolling of the page.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      await page.screenshot({ path: screenshotPath(`phone-${name}`), fullPage: false });
    }
    const fontSize = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(16);
  });
});
