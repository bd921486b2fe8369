// Issue 23.3 in a real browser (Debian's Chromium): another site's auto-submitted form cannot send a
// message as the user, neither with credentials the browser holds for this server (Basic) nor with a
// session cookie; a page of this server still posts with its session's CSRF token.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { hasChromium, inCi, launchChromium, screenshotPath, CHROMIUM } from "../support/browser";
import { startTestServer, type TestServer } from "../support/harness";
import { givePassword, PASSWORD } from "../support/webSession";

// Browser globals used inside page.evaluate callbacks (this project compiles without the DOM lib).
declare const document: any, fetch: any, URLSearchParams: any;

const run = hasChromium || inCi;
const suite = run ? describe : describe.skip;
if (!run) it.skip(`browser tests (skipped: ${CHROMIUM} not found)`, () => undefined);

jest.setTimeout(60_000);

suite("cross-site forms in Chromium", () => {
  let server: TestServer;
  let browser: Browser;
  let evil: http.Server;
  let evilUrl: string;

  beforeAll(async () => {
    server = await startTestServer();
    await givePassword(server, server.users.member);
    browser = await launchChromium();
    // The attacker's page: "localhost" is another site than the server's 127.0.0.1.
    evil = http.createServer((_req, res) => {
      const target = `${server.url}/api/v1/messages`;
      res.setHeader("content-type", "text/html");
      res.end(`<!doctype html><form id="f" method="post" action="${target}">
        <input name="type" value="stream"><input name="to" value="general">
        <input name="topic" value="forged"><input name="content" value="sent by another site">
        </form><script>document.getElementById("f").submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", () => resolve()));
    evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => evil?.close(resolve));
    await server?.close();
  });

  const forgedCount = async () =>
    Number((await server.db("messages").where({ topic: "forged" }).count({ n: "*" }))[0].n);

  async function submitFromEvilSite(context: Awaited<ReturnType<Browser["newContext"]>>) {
    const page = await context.newPage();
    const answer = page.waitForResponse((r) => r.url().startsWith(`${server.url}/api/v1/messages`));
    await page.goto(evilUrl);
    const res = await answer;
    return { page, status: res.status(), body: await res.json() };
  }

  it("refuses the auto-submitted form when the browser holds the user's Basic credentials", async () => {
    // As a browser that once answered a Basic prompt: it sends the credentials with every request to the server.
    const basic = Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64");
    const context = await browser.newContext();
    await context.route(`${server.url}/**`, (route) =>
      route.continue({ headers: { ...route.request().headers(), authorization: `Basic ${basic}` } }),
    );
    try {
      const { page, status, body } = await submitFromEvilSite(context);
      expect(status).toBe(403);
      expect(body.code).toBe("CSRF_FAILED");
      await page.screenshot({ path: screenshotPath("cross-site-form-refused") });
      expect(await forgedCount()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("refuses it for a signed-in browser, whose own page still posts with the session's token", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/login/`);
      await page.fill("#email", server.users.member.email);
      await page.fill("#password", PASSWORD);
      await Promise.all([page.waitForURL(`${server.url}/integrations/`), page.click("#sign-in")]);
      const cookies = await context.cookies(server.url);
      const session = cookies.find((c) => c.name === "switchboard_session")!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", secure: false });

      const forged = await submitFromEvilSite(context);
      expect(forged.status).toBe(403);
      expect(forged.body.code).toBe("CSRF_FAILED");
      expect(await forgedCount()).toBe(0);

      // This server's page, with its token (from the sign-out form), may post; without it, not.
      await page.goto(`${server.url}/login/`);
      const results = await page.evaluate(async () => {
        const token = document.querySelector('input[name="csrf_token"]').value;
        const body = new URLSearchParams({ type: "stream", to: "general", topic: "own page", content: "hello" });
        const post = (headers: Record<string, string>) =>
          fetch("/api/v1/messages", { method: "POST", headers, body }).then(async (r: any) => [
            r.status,
            (await r.json()).code,
          ]);
        return [await post({ "X-CSRFToken": token }), await post({})];
      });
      expect(results).toEqual([
        [200, undefined],
        [403, "CSRF_FAILED"],
      ]);
    } finally {
      await context.close();
    }
  });
});
