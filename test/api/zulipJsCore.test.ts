// The official JS client against the real server: settings, send, read back, register, events.
import { startTestServer, type TestServer } from "../support/harness";
import { zulipJs } from "../support/zulipJs";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("zulip-js against the core API", () => {
  it("fetches server settings, sends channel and direct messages, reads them and receives events", async () => {
    const owner = await zulipJs(server, server.users.owner);
    const member = await zulipJs(server, server.users.member);

    const settings = await owner.server.settings();
    expect(settings).toMatchObject({ result: "success", zulip_feature_level: 507 });

    const queue = await member.queues.register({ event_types: ["message"] });
    expect(queue.result).toBe("success");
    expect(typeof queue.queue_id).toBe("string");

    const sent = await owner.messages.send({
      to: "general",
      type: "stream",
      topic: "zulip-js",
      content: "hello from zulip-js",
    });
    expect(sent).toMatchObject({ result: "success" });
    const dm = await owner.messages.send({ to: [server.users.member.id], type: "direct", content: "a private hello" });
    expect(dm).toMatchObject({ result: "success" });

    const history = await member.messages.retrieve({ anchor: "newest", num_before: 10, num_after: 0, narrow: [] });
    expect(history.result).toBe("success");
    const contents = history.messages.map((m: { content: string }) => m.content);
    expect(contents).toEqual(expect.arrayContaining(["<p>hello from zulip-js</p>", "<p>a private hello</p>"]));

    const events = await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: -1 });
    expect(events.result).toBe("success");
    const messageEvents = events.events.filter((e: { type: string }) => e.type === "message");
    expect(messageEvents.map((e: { message: { id: number } }) => e.message.id)).toEqual([sent.id, dm.id]);
  });
});
