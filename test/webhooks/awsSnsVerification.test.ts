// Amazon SNS signatures and subscription confirmations (manifest `"verification": "aws-sns"`,
// src/services/webhooks/awsSns.ts) through the real app: a real RSA key and a self-signed X.509
// certificate made with openssl, messages signed over SNS's canonical string (SignatureVersion 1 and
// 2), amazonaws.com stubbed with nock and every other outbound connection refused (test/setup.ts),
// so "no request was made" is something nock asserts. Bodies are posted exactly as built here
// (`snsSign: false`).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import nock from "nock";
import { SNS_CERT_TIMEOUT_MS, SNS_CONFIRM_TIMEOUT_MS } from "../../src/limits";
import { startTestServer, type TestServer } from "../support/harness";
import { snsSignature } from "../support/snsSigning";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const SNS = "https://sns.eu-west-3.amazonaws.com";
const TOPIC = "arn:aws:sns:eu-west-3:508812349901:greenhouse-alerts";
let certCount = 0;
/** A certificate path of its own per test, so the server's certificate cache never answers for another test. */
const nextCertPath = () => `/SimpleNotificationService-${++certCount}a7f.pem`;

describe("Amazon SNS signature verification and confirmation", () => {
  let server: TestServer;
  let tmp: string;
  let privateKey: crypto.KeyObject;
  let certPem: string;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sns-cert-"));
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem"].concat([
        "-days",
        "2",
        "-subj",
        "/CN=sns.eu-west-3.amazonaws.com",
      ]),
      { cwd: tmp, stdio: "ignore" },
    );
    privateKey = crypto.createPrivateKey(fs.readFileSync(path.join(tmp, "key.pem")));
    certPem = fs.readFileSync(path.join(tmp, "cert.pem"), "utf8");
    // test/setup.ts lets only loopback through: an unstubbed request fails (nock refuses it).
    server = await startTestServer({ WEBHOOK_DEDUP_WINDOW_SECONDS: "0" }, { integrations: ["aws_sns"] });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  afterEach(() => nock.cleanAll());

  const notification = (certUrl: string, over: Record<string, unknown> = {}) => ({
    Type: "Notification",
    MessageId: crypto.randomUUID(),
    TopicArn: TOPIC,
    Subject: "Humidity high in bay 4",
    Message: "Bay 4 humidity reached 91% at 06:10.",
    Timestamp: "2026-03-04T06:10:00.000Z",
    SignatureVersion: "1",
    SigningCertURL: certUrl,
    UnsubscribeURL: `${SNS}/?Action=Unsubscribe&SubscriptionArn=${TOPIC}:1f2e`,
    ...over,
  });
  const confirmation = (certUrl: string, over: Record<string, unknown> = {}) => ({
    Type: "SubscriptionConfirmation",
    MessageId: crypto.randomUUID(),
    Token: "2336412f37fb687f5d51e6e2425f004ae",
    TopicArn: TOPIC,
    Message: `You have chosen to subscribe to the topic ${TOPIC}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
    SubscribeURL: `${SNS}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=2336412f37fb687f5d51e6e2425f004ae`,
    Timestamp: "2026-03-04T06:00:00.000Z",
    SignatureVersion: "1",
    SigningCertURL: certUrl,
    ...over,
  });
  const signed = <T extends Record<string, unknown>>(message: T) => ({
    ...message,
    Signature: snsSignature(message, privateKey, message.SignatureVersion === "2" ? "2" : "1"),
  });
  const post = async (message: Record<string, unknown>, query: Record<string, string> = {}) => {
    const before = await latestMessageId(server);
    const res = await postWebhook(server, "aws_sns", {
      body: JSON.stringify(message),
      contentType: "text/plain; charset=UTF-8",
      query: { stream: "general", ...query },
      snsSign: false,
    });
    return { res, stored: await messagesSince(server, before, server.users.bot.id) };
  };
  const expectRefused = (out: Awaited<ReturnType<typeof post>>, status: number, code: string, msg: string | RegExp) => {
    expect([out.res.status, out.res.body.code]).toEqual([status, code]);
    expect(out.res.body.msg).toMatch(msg);
    expect(out.stored).toEqual([]);
  };
  const stubCert = (certPath: string) => nock(SNS).get(certPath).reply(200, certPem);

  it("posts a notification signed with SignatureVersion 1 (RSA-SHA1), fetching the certificate once", async () => {
    const certPath = nextCertPath();
    const cert = stubCert(certPath);
    const first = await post(signed(notification(SNS + certPath)));
    expect(first.res.status).toBe(200);
    expect(cert.isDone()).toBe(true);
    expect(first.stored.map((m) => [m.topic, m.content])).toEqual([
      ["Humidity high in bay 4", "**Humidity high in bay 4**\n~~~ quote\nBay 4 humidity reached 91% at 06:10.\n~~~"],
    ]);
    // The certificate is cached by URL: a second message makes no request (nock would refuse it).
    const second = await post(signed(notification(SNS + certPath, { Message: "Back to 64%." })));
    expect(second.res.status).toBe(200);
    expect(second.stored).toHaveLength(1);
  });

  it("posts a notification signed with SignatureVersion 2 (RSA-SHA256), and one without a Subject", async () => {
    const certPath = nextCertPath();
    stubCert(certPath);
    const v2 = await post(signed(notification(SNS + certPath, { SignatureVersion: "2" })));
    expect(v2.res.status).toBe(200);
    expect(v2.stored).toHaveLength(1);
    const { Subject: _none, ...noSubject } = notification(SNS + certPath, { SignatureVersion: "2" });
    const bare = await post(signed(noSubject));
    expect(bare.res.status).toBe(200);
    expect(bare.stored.map((m) => m.topic)).toEqual(["greenhouse-alerts"]);
  });

  it("refuses a message changed after signing, and a signature of the wrong version, with 401", async () => {
    const certPath = nextCertPath();
    stubCert(certPath);
    const message = signed(notification(SNS + certPath));
    expectRefused(
      await post({ ...message, Message: "Bay 4 is fine, ignore the alarms." }),
      401,
      "INVALID_SIGNATURE",
      "Amazon SNS signature refused: the Signature (version 1) does not match the message",
    );
    // A SHA1 signature presented as version 2 does not verify either (the cached certificate is used).
    expectRefused(await post({ ...message, SignatureVersion: "2" }), 401, "INVALID_SIGNATURE", /version 2/);
    expectRefused(await post({ ...message, SignatureVersion: "3" }), 401, "INVALID_SIGNATURE", /SignatureVersion/);
    const { Signature: _s, ...unsigned } = message;
    expectRefused(await post(unsigned), 401, "INVALID_SIGNATURE", /Signature is missing/);
    const { MessageId: _id, ...noId } = notification(SNS + certPath);
    expectRefused(await post({ ...noId, Signature: "c2ln" }), 401, "INVALID_SIGNATURE", /'MessageId' is missing/);
  });

  it.each([
    ["another host", "https://certs.example.net/SimpleNotificationService-1.pem"],
    ["a look-alike host", "https://sns.eu-west-3.amazonaws.com.example.net/SimpleNotificationService-1.pem"],
    ["an amazonaws.com host that is not SNS", "https://s3.eu-west-3.amazonaws.com/SimpleNotificationService-1.pem"],
    ["http", "http://sns.eu-west-3.amazonaws.com/SimpleNotificationService-1.pem"],
    ["another port", "https://sns.eu-west-3.amazonaws.com:8443/SimpleNotificationService-1.pem"],
    ["user info", "https://x@sns.eu-west-3.amazonaws.com/SimpleNotificationService-1.pem"],
    ["a path that is not a .pem", "https://sns.eu-west-3.amazonaws.com/?Action=Subscribe"],
  ])("refuses a SigningCertURL on %s without making a request", async (_what, certUrl) => {
    const url = new URL(certUrl);
    const elsewhere = nock(`${url.protocol}//${url.host}`).get(/.*/).reply(200, certPem);
    const out = await post(signed(notification(certUrl)));
    expectRefused(out, 401, "INVALID_SIGNATURE", /SigningCertURL is not an https \.pem URL on an sns\.<region>/);
    expect(elsewhere.isDone()).toBe(false);
  });

  it("does not follow a redirect from the certificate URL", async () => {
    const certPath = nextCertPath();
    const moved = nextCertPath();
    const first = nock(SNS)
      .get(certPath)
      .reply(301, "", { location: SNS + moved });
    const target = nock(SNS).get(moved).reply(200, certPem);
    const out = await post(signed(notification(SNS + certPath)));
    expectRefused(out, 401, "INVALID_SIGNATURE", /answered a redirect, which is not followed/);
    expect(first.isDone()).toBe(true);
    expect(target.isDone()).toBe(false);
  });

  it("refuses an answer that is not a certificate (a 404, HTML) with 401", async () => {
    const missing = nextCertPath();
    nock(SNS).get(missing).reply(404, "<Error>NoSuchKey</Error>");
    expectRefused(await post(signed(notification(SNS + missing))), 401, "INVALID_SIGNATURE", /answered 404/);
    const html = nextCertPath();
    nock(SNS).get(html).reply(200, "<html>not a certificate</html>");
    expectRefused(await post(signed(notification(SNS + html))), 401, "INVALID_SIGNATURE", /PEM X\.509/);
  });

  it("refuses with a retryable 503, never posting unverified, when the certificate cannot be fetched", async () => {
    const broken = nextCertPath();
    nock(SNS).get(broken).replyWithError({ code: "ECONNRESET" });
    const out = await post(signed(notification(SNS + broken)));
    expectRefused(
      out,
      503,
      "SERVICE_UNAVAILABLE",
      /could not be fetched from sns\.eu-west-3\.amazonaws\.com \(connection/,
    );
    expect(out.res.headers.get("retry-after")).toBe("60");
    // SNS's retry, once the host answers, is verified and posted.
    nock(SNS).get(broken).reply(200, certPem);
    expect((await post(signed(notification(SNS + broken)))).stored).toHaveLength(1);
    const busy = nextCertPath();
    nock(SNS).get(busy).reply(503, "Slow down");
    expectRefused(await post(signed(notification(SNS + busy))), 503, "SERVICE_UNAVAILABLE", /answered 503/);
  });

  it("verifies a replay too: a delivery refused while the certificate was unreachable posts once it verifies", async () => {
    const certPath = nextCertPath();
    nock(SNS).get(certPath).replyWithError({ code: "ETIMEDOUT" });
    expect((await post(signed(notification(SNS + certPath)))).res.status).toBe(503);
    await server.deps.webhookOps.log.idle();
    const row = await server.db("webhook_deliveries").where("integration", "aws_sns").orderBy("id", "desc").first();
    expect(row.code).toBe("SERVICE_UNAVAILABLE");
    const replay = () => server.as(server.users.owner).post(`/webhooks/deliveries/${row.id}/replay`);
    // Still unreachable: the replay is refused like the delivery, nothing posted unverified.
    nock(SNS).get(certPath).replyWithError({ code: "ETIMEDOUT" });
    const before = await latestMessageId(server);
    const refusedReplay = await replay();
    expect(refusedReplay.body.delivery).toMatchObject({ outcome: "error", code: "SERVICE_UNAVAILABLE" });
    expect(await messagesSince(server, before, server.users.bot.id)).toEqual([]);
    const cert = stubCert(certPath);
    expect((await replay()).body.delivery).toMatchObject({ outcome: "message" });
    expect(cert.isDone()).toBe(true);
    expect(await messagesSince(server, before, server.users.bot.id)).toHaveLength(1);
  });

  it(
    "gives up on a certificate that does not come within the time limit",
    async () => {
      const slow = nextCertPath();
      nock(SNS)
        .get(slow)
        .delay(SNS_CERT_TIMEOUT_MS + 1000)
        .reply(200, certPem);
      const started = Date.now();
      const out = await post(signed(notification(SNS + slow)));
      expectRefused(out, 503, "SERVICE_UNAVAILABLE", new RegExp(`no answer within ${SNS_CERT_TIMEOUT_MS / 1000} s`));
      expect(Date.now() - started).toBeLessThan(SNS_CERT_TIMEOUT_MS + 900);
    },
    SNS_CERT_TIMEOUT_MS + 15_000,
  );

  describe("subscription confirmations", () => {
    const linkText = (message: { SubscribeURL: string }) => `[this confirmation link](${message.SubscribeURL})`;

    it("sends the owner the link and opens nothing without auto_confirm", async () => {
      const certPath = nextCertPath();
      stubCert(certPath);
      const message = confirmation(SNS + certPath);
      const subscribe = nock(SNS).get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
      const out = await post(signed(message));
      expect(out.res.status).toBe(200);
      expect(subscribe.isDone()).toBe(false);
      expect(out.stored.map((m) => [m.type, m.content])).toEqual([
        [
          "private",
          `Amazon SNS asks to confirm this bot's subscription to the topic \`${TOPIC}\`.\n` +
            `To start receiving its notifications, open ${linkText(message)} (only if you created this subscription).`,
        ],
      ]);
    });

    it("with auto_confirm=true, opens the SubscribeURL once the signature verified and says so", async () => {
      const certPath = nextCertPath();
      stubCert(certPath);
      const subscribe = nock(SNS)
        .get("/")
        .query({ Action: "ConfirmSubscription", TopicArn: TOPIC, Token: "2336412f37fb687f5d51e6e2425f004ae" })
        .reply(200, "<ConfirmSubscriptionResponse/>");
      const out = await post(signed(confirmation(SNS + certPath)), { auto_confirm: "true" });
      expect(out.res.status).toBe(200);
      expect(subscribe.isDone()).toBe(true);
      expect(out.stored.map((m) => m.content)).toEqual([
        `This bot confirmed its subscription to the Amazon SNS topic \`${TOPIC}\` by itself (the webhook URL has ` +
          "`auto_confirm=true`): the topic's notifications will be posted from now on.",
      ]);
    });

    it("does not confirm a confirmation whose signature does not verify", async () => {
      const certPath = nextCertPath();
      stubCert(certPath);
      const subscribe = nock(SNS).get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
      const message = signed(confirmation(SNS + certPath));
      const out = await post({ ...message, Token: "ffff" }, { auto_confirm: "true" });
      expectRefused(out, 401, "INVALID_SIGNATURE", /does not match/);
      expect(subscribe.isDone()).toBe(false);
    });

    it.each([
      ["another host", "https://confirm.example.net/?Action=ConfirmSubscription&Token=1"],
      ["http", "http://sns.eu-west-3.amazonaws.com/?Action=ConfirmSubscription&Token=1"],
      ["another SNS action", "https://sns.eu-west-3.amazonaws.com/?Action=Subscribe&Endpoint=x"],
    ])("does not open a SubscribeURL on %s, and gives the owner the link", async (_what, subscribeUrl) => {
      const certPath = nextCertPath();
      stubCert(certPath);
      const url = new URL(subscribeUrl);
      const elsewhere = nock(`${url.protocol}//${url.host}`).get(/.*/).reply(200, "ok");
      const message = confirmation(SNS + certPath, { SubscribeURL: subscribeUrl });
      const out = await post(signed(message), { auto_confirm: "true" });
      expect(out.res.status).toBe(200);
      expect(elsewhere.isDone()).toBe(false);
      expect(out.stored).toHaveLength(1);
      expect(out.stored[0].content).toContain(
        "Confirming it by itself failed: its SubscribeURL is not an https ConfirmSubscription URL on an " +
          "Amazon SNS host (sns.REGION.amazonaws.com), so it was not opened.",
      );
      expect(out.stored[0].content).toContain("open [this confirmation link](");
    });

    it.each([
      ["answers 403", () => nock(SNS).get("/").query(true).reply(403, "<ErrorResponse/>"), "Amazon SNS answered 403"],
      [
        "answers a redirect (not followed)",
        () => nock(SNS).get("/").query(true).reply(302, "", { location: "https://confirm.example.net/" }),
        "Amazon SNS answered a redirect, which is not followed",
      ],
      [
        "does not answer in time",
        () =>
          nock(SNS)
            .get("/")
            .query(true)
            .delay(SNS_CONFIRM_TIMEOUT_MS + 1000)
            .reply(200, "<ConfirmSubscriptionResponse/>"),
        `no answer within ${SNS_CONFIRM_TIMEOUT_MS / 1000} s`,
      ],
    ])(
      "says confirming failed, with the link, when SNS %s",
      async (_what, stub, reason) => {
        const certPath = nextCertPath();
        stubCert(certPath);
        const scope = stub();
        const redirected = nock("https://confirm.example.net").get(/.*/).reply(200, "ok");
        const message = confirmation(SNS + certPath);
        const out = await post(signed(message), { auto_confirm: "true" });
        expect(out.res.status).toBe(200);
        expect(scope.isDone()).toBe(true);
        expect(redirected.isDone()).toBe(false);
        expect(out.stored.map((m) => m.content)).toEqual([
          `Amazon SNS asks to confirm this bot's subscription to the topic \`${TOPIC}\`.\n` +
            `Confirming it by itself failed: ${reason}.\n` +
            `To start receiving its notifications, open ${linkText(message)} (only if you created this subscription).`,
        ]);
      },
      SNS_CONFIRM_TIMEOUT_MS + 15_000,
    );

    it("neither posts nor confirms a confirmation filtered out with exclude_events", async () => {
      const subscribe = nock(SNS).get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
      const certPath = nextCertPath();
      const cert = stubCert(certPath);
      const out = await post(signed(confirmation(SNS + certPath)), {
        auto_confirm: "true",
        exclude_events: "SubscriptionConfirmation",
      });
      expect([out.res.status, out.stored]).toEqual([200, []]);
      expect(subscribe.isDone() || cert.isDone()).toBe(false);
    });

    it("a replay verifies again but never confirms again: it posts the link", async () => {
      const certPath = nextCertPath();
      stubCert(certPath);
      nock(SNS).get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
      const message = signed(confirmation(SNS + certPath));
      expect((await post(message, { auto_confirm: "true" })).stored[0].content).toContain("confirmed its subscription");
      expect(nock.pendingMocks()).toEqual([]);
      await server.deps.webhookOps.log.idle();
      const row = await server.db("webhook_deliveries").where("integration", "aws_sns").orderBy("id", "desc").first();
      // Any request now would fail the replay's confirmation (nock allows none): it must make none.
      const subscribeAgain = nock(SNS).get("/").query(true).reply(200, "<ConfirmSubscriptionResponse/>");
      const before = await latestMessageId(server);
      const res = await server.as(server.users.owner).post(`/webhooks/deliveries/${row.id}/replay`);
      expect(res.status).toBe(200);
      expect(subscribeAgain.isDone()).toBe(false);
      const stored = await messagesSince(server, before, server.users.bot.id);
      expect(stored.map((m) => m.content)).toEqual([
        `Amazon SNS asks to confirm this bot's subscription to the topic \`${TOPIC}\`.\n` +
          `To start receiving its notifications, open ${linkText(message)} (only if you created this subscription).`,
      ]);
    });
  });

  it("a bot with a webhook secret accepts verified SNS messages (SNS cannot send the secret)", async () => {
    const patch = await server
      .as(server.users.owner)
      .patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "greenhouse-secret" });
    expect(patch.status).toBe(200);
    try {
      const certPath = nextCertPath();
      stubCert(certPath);
      expect((await post(signed(notification(SNS + certPath)))).stored).toHaveLength(1);
      expectRefused(
        await post({ ...signed(notification(SNS + certPath)), Subject: "Forged" }),
        401,
        "INVALID_SIGNATURE",
        /does not match/,
      );
    } finally {
      await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret: "" });
    }
  });

  // AWS's published samples carry AWS's own example signatures: over HTTP they are refused, never posted.
  const SHARED = path.join(__dirname, "..", "..", "..", "shared", "fixtures", "aws_sns");
  (fs.existsSync(SHARED) ? it : it.skip)("refuses the shared corpus' sample messages over HTTP", async () => {
    const sample = (name: string) => JSON.parse(fs.readFileSync(path.join(SHARED, name), "utf8"));
    // The confirmation sample names a real certificate URL: served here with our certificate, whose key did not sign it.
    const confirm = sample("subscription_confirmation.json");
    const certUrl = new URL(confirm.SigningCertURL);
    const cert = nock(certUrl.origin).get(certUrl.pathname).reply(200, certPem);
    expectRefused(await post(confirm, { auto_confirm: "true" }), 401, "INVALID_SIGNATURE", /does not match/);
    expect(cert.isDone()).toBe(true);
    // The alarm samples' SigningCertURL is "EXAMPLE": refused before any request.
    expectRefused(
      await post(sample("cloudwatch_alarm__single_metric.json")),
      401,
      "INVALID_SIGNATURE",
      /SigningCertURL is not/,
    );
    expect(nock.pendingMocks()).toEqual([]);
  });
});
