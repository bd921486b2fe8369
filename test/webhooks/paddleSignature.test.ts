// Paddle signs the time and the body in one header (`Paddle-Signature: ts=<unix>;h1=<hex>`): a bot
// with a webhook secret stores a delivery signed just now and refuses a wrong or an old signature.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook, setBotSecret } from "../support/webhooks";

const SECRET = "pdl_ntf_tidepool_secret";
const body = fs.readFileSync(path.join(__dirname, "../../integrations/paddle/fixtures/payout__paid.json"));
const signature = (ts: number, secret = SECRET) =>
  `ts=${ts};h1=${crypto.createHmac("sha256", secret).update(`${ts}:`).update(body).digest("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { integrations: ["paddle"] });
  await setBotSecret(server, SECRET);
});
afterAll(() => server.close());

const deliver = (header: string | undefined) =>
  postWebhook(server, "paddle", {
    body,
    query: { stream: "general" },
    headers: header === undefined ? {} : { "Paddle-Signature": header },
  });

it("refuses a missing, wrongly keyed or malformed signature, and one signed an hour ago, storing nothing", async () => {
  const before = await latestMessageId(server);
  const missing = await deliver(undefined);
  expect([missing.status, missing.body.code]).toEqual([401, "INVALID_SIGNATURE"]);
  const wrong = await deliver(signature(now(), "another-secret"));
  expect([wrong.status, wrong.body.code, wrong.body.msg]).toEqual([
    401,
    "INVALID_SIGNATURE",
    "The 'Paddle-Signature' signature does not match the request body",
  ]);
  const malformed = await deliver("h1=abc");
  expect([malformed.status, malformed.body.msg]).toEqual([
    401,
    "The 'Paddle-Signature' header must hold ts=<unix seconds> and h1=<digest>",
  ]);
  const old = await deliver(signature(now() - 3600));
  expect([old.status, old.body.code, old.body.limit]).toEqual([401, "STALE_SIGNATURE", 5]);
  expect(JSON.stringify(old.body)).not.toContain(SECRET);
  expect(await messagesSince(server, before)).toEqual([]);
});

// After the refusals, so the server is warm and the delivery arrives well inside the 5 s tolerance.
it("stores a delivery signed just now", async () => {
  const before = await latestMessageId(server);
  const res = await deliver(signature(now()));
  expect(res.body).toEqual({ result: "success", msg: "" });
  expect((await messagesSince(server, before)).map((m) => m.topic)).toEqual(["Payouts"]);
});
