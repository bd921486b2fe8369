// HelloSign (Dropbox Sign) through the real app: the service counts a callback as delivered only
// when the 200 answer's body contains "Hello API Event Received", for its callback_test event too
// (sent when the URL is saved), so every success answer carries it (manifest `reply`).
import { startTestServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince, postWebhook } from "../support/webhooks";

const ACK = "Hello API Event Received";

describe("HelloSign answers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { integrations: ["hellosign"] });
  });
  afterAll(() => server.close());

  // HelloSign posts the event as the form field `json`.
  const send = (event: Record<string, unknown>) =>
    postWebhook(server, "hellosign", {
      body: new URLSearchParams({ json: JSON.stringify(event) }).toString(),
      contentType: "application/x-www-form-urlencoded",
      query: { stream: "general" },
    });

  it("answers the callback_test event with the acknowledgement in the body, posting nothing", async () => {
    const before = await latestMessageId(server);
    const res = await send({
      event: { event_type: "callback_test", event_time: "1764900000", event_hash: "cb-test-7f3a" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: "success", msg: ACK });
    expect(await messagesSince(server, before)).toEqual([]);
  });

  it("answers a posted event, its redelivery and an event type it does not know with it too", async () => {
    const signed = {
      event: { event_type: "signature_request_signed", event_time: "1764900100", event_hash: "sr-signed-91c2" },
      signature_request: {
        signature_request_id: "7b1e0c9d4a",
        title: "Greenhouse lease 2027",
        signatures: [{ signer_name: "Ilse Brandt", signer_email_address: "ilse@example.net", status_code: "signed" }],
      },
    };
    const before = await latestMessageId(server);
    expect((await send(signed)).body).toEqual({ result: "success", msg: ACK });
    expect((await send(signed)).body).toEqual({ result: "success", msg: ACK });
    expect(await messagesSince(server, before, server.users.bot.id)).toHaveLength(1);
    const unknown = await send({ event: { event_type: "template_created", event_hash: "tpl-1" } });
    expect([unknown.status, unknown.body]).toEqual([
      200,
      {
        result: "success",
        msg: ACK,
        code: "UNSUPPORTED_WEBHOOK_EVENT_TYPE",
        webhook_name: "HelloSign",
        event_type: "template_created",
      },
    ]);
  });
});
