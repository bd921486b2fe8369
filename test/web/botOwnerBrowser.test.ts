// The whole path of a bot owner in a real browser (Debian's Chromium through playwright-core), against
// the real app and database: accept an invitation, land signed in, create an incoming-webhook bot on
// /bots/ (its key shown once), copy its webhook URL from the helloworld URL builder (bot and channel
// from the session), post a delivery with that URL over HTTP, see it in Recent deliveries rendered
// with its channel and topic, sign out. Screenshots under test-output/screenshots/.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasChromium, inCi, launchChromium, screenshotPath, CHROMIUM } from "../support/browser";
import { startTestServer, type TestServer } from "../support/harness";

// Browser globals used inside page.evaluate callbacks (this project compiles without the DOM lib).
declare const document: any, navigator: any;

const run = hasChromium || inCi;
const suite = run ? describe : describe.skip;
if (!run) {
  console.warn(`Browser tests skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
  it.skip(`browser tests (skipped: ${CHROMIUM} not found)`, () => undefined);
}

suite("a bot owner's path in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: .ci/run installs it with apt`);
    server = await startTestServer({}, { integrations: ["helloworld", "github"] });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
    page.setDefaultTimeout(5000);
    // Any script error or CSP violation on the pages fails the test.
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  async function statusText(id: string): Promise<string> {
    await page.waitForFunction((target) => document.getElementById(target).textContent !== "", id);
    return (await page.textContent(`#${id}`))!;
  }

  it("joins, creates a bot, copies its URL, sees the delivery it posted, and signs out", async () => {
    // An administrator's reusable invitation link, made with the API.
    const invite = await server.as(server.users.admin).post("/invites/multiuse", {
      stream_ids: [server.general.id],
      invite_as: 400,
    });
    expect(invite.status).toBe(200);
    const joinPath = new URL(invite.body.invite_link as string).pathname;

    // 1. Accept it: name, address and password; the account exists and is signed in at once.
    await page.goto(`${server.url}${joinPath}`);
    await page.fill("#email", "nadia@test.example");
    await page.fill("#full_name", "Nadia Newcomer");
    await page.fill("#password", "a long walk by the river");
    await page.screenshot({ path: screenshotPath("owner-path-1-join"), fullPage: false });
    await page.click("#join");
    await page.waitForURL(`${server.url}/integrations/`);
    expect(await page.textContent("#signed-in-user")).toBe("Nadia Newcomer");

    // 2. Your bots: create an incoming-webhook bot; its key is shown once.
    await page.click("header.site >> text=Your bots");
    await page.waitForURL(`${server.url}/bots/`);
    expect(await page.textContent("#no-bots")).toBe("You have no active bots yet.");
    expect(await page.inputValue("#bot_type")).toBe("2");
    await page.fill("#full_name", "Greeter");
    await page.fill("#short_name", "greeter");
    await page.click("#create");
    await page.waitForSelector("#new-key");
    expect(await page.textContent("#new-key-h")).toBe("Bot created: Greeter");
    expect(await page.textContent("#new-key")).toContain("it is shown only this once");
    const key = await page.inputValue("#new-key-value");
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    await page.click("#copy-key");
    expect(await statusText("copy-key-status")).toBe("Copied.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.textContent("#bots .bot-name")).toBe("Greeter");
    await page.screenshot({ path: screenshotPath("owner-path-2-bot-created"), fullPage: true });

    // 3. The helloworld URL builder: the new bot (its key known to this tab) and the user's channel.
    await page.goto(`${server.url}/integrations/helloworld`);
    const bot = await server.db("users").where({ email: "greeter-bot@localhost" }).first();
    expect(await page.inputValue("#bot_pick")).toBe(String(bot.id));
    expect(await page.inputValue("#bot_key")).toBe(key);
    expect(await page.inputValue("#stream")).toBe("general");
    expect(await page.isVisible("#owner_key")).toBe(false);
    await page.fill("#topic", "Greetings");
    const expected = `http://localhost:9991/api/v1/external/helloworld?api_key=${key}&stream=general&topic=Greetings`;
    expect(await page.inputValue("#url")).toBe(expected);
    await page.click("#copy");
    expect(await statusText("copy-status")).toBe("Copied.");
    const copied: string = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(expected);
    // The test delivery renders the sample with the session (no key typed).
    await page.selectOption("#fixture", "hello");
    await page.click("#send_test");
    await page.waitForSelector("#test-result .message");
    expect(await page.textContent("#test-result .topic")).toBe("Topic: Greetings");
    expect(await page.textContent("#test-result .outcome")).toBe("Would post 1 message:");
    // The sample's :smile: shows as the emoji itself, as a chat client shows it.
    expect(await page.textContent("#test-result .rendered .emoji")).toBe("\u{1f642}");
    await page.screenshot({ path: screenshotPath("owner-path-3-url-builder"), fullPage: false });

    // 4. The service calls the copied URL (here: the test, over HTTP, at this server's address).
    const posted = await fetch(copied.replace("http://localhost:9991", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ featured_title: "Pharos of Alexandria", featured_url: "https://example.com/pharos" }),
    });
    expect(posted.status).toBe(200);
    await server.deps.webhookOps.log.idle();

    // 5. Recent deliveries shows it at once, with the message as a chat client shows it.
    await page.click("header.site >> text=Recent deliveries");
    await page.waitForURL(`${server.url}/integrations/deliveries`);
    const first = page.locator("#delivery-list .delivery").first();
    expect(await first.locator(".bot").textContent()).toBe("Greeter");
    expect(await first.locator(".outcome").textContent()).toBe("message");
    expect(await first.locator(".channel").textContent()).toBe("#general");
    expect(await first.locator(".topic").textContent()).toBe("Greetings");
    const link = first.locator(".rendered a");
    expect(await link.textContent()).toBe("Pharos of Alexandria");
    expect(await link.getAttribute("href")).toBe("https://example.com/pharos");
    expect(await first.locator(".rendered .emoji").textContent()).toBe("\u{1f642}");
    expect(await first.locator(".rendered .emoji").getAttribute("title")).toBe("smile");
    expect((await page.textContent("#deliveries-status"))?.trim()).toBe("1 delivery, newest first.");
    expect(await first.locator(".details").textContent()).toBe("1 message posted");
    await page.screenshot({ path: screenshotPath("owner-path-4-deliveries"), fullPage: false });

    // 6. Sign out from the header: the session ends.
    await page.click("#header-sign-out");
    await page.waitForURL(`${server.url}/login/`);
    await page.goto(`${server.url}/bots/`);
    await page.waitForURL(/\/login\/\?next=%2Fbots%2F$/);
    await page.goto(`${server.url}/integrations/`);
    expect(await page.isVisible("#sign-in-link")).toBe(true);
    expect(await page.isVisible("#signed-in-user")).toBe(false);
    expect(problems).toEqual([]);
  });

  it("posts a sample with the built URL from the builder, shown in Recent deliveries", async () => {
    await page.goto(`${server.url}/login/`);
    await page.fill("#email", "nadia@test.example");
    await page.fill("#password", "a long walk by the river");
    await page.click("#sign-in");
    await page.waitForURL(`${server.url}/integrations/`);
    // This tab still knows Greeter's key (it was shown here): the builder fills it in.
    await page.goto(`${server.url}/integrations/helloworld`);
    expect(await page.inputValue("#bot_key")).toMatch(/^[A-Za-z0-9]{32}$/);
    await page.fill("#topic", "Sampled");
    await page.selectOption("#fixture", "hello");
    await page.click("#post_test");
    await page.waitForSelector("#test-result .outcome-message");
    expect(await page.textContent("#test-result")).toBe("Posted. See it in Recent deliveries");
    await server.deps.webhookOps.log.idle();
    await page.click("#test-result a");
    await page.waitForURL(`${server.url}/integrations/deliveries`);
    const first = page.locator("#delivery-list .delivery").first();
    expect(await first.locator(".topic").textContent()).toBe("Sampled");
    expect(await first.locator(".rendered a").textContent()).toBe("Lighthouse of Alexandria");
    expect(problems).toEqual([]);
  });
});
