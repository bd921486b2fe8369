// A template override saved through one server process takes effect in another one (same
// database, same Redis): the change is broadcast on the event bus and drops the other process's
// cached overrides.
import { startSecondServer, startTestServer, type SecondServer, type TestServer } from "../support/harness";
import { latestMessageId, messagesSince } from "../support/webhooks";

// Two servers (each loads every plugin) start in the hooks: slow on a busy machine.
jest.setTimeout(120_000);

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const hello = JSON.stringify({ featured_title: "Aurora", featured_url: "https://en.wikipedia.org/wiki/Aurora" });

describe("template overrides across server processes", () => {
  let first: TestServer;
  let second: SecondServer;
  beforeAll(async () => {
    first = await startTestServer({ REDIS_URL });
    second = await startSecondServer(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const postToSecond = () =>
    fetch(`${second.url}/api/v1/external/helloworld?api_key=${first.users.bot.apiKey}&stream=general`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: hello,
    });
  const previewTopic = async () =>
    (await second.as(first.users.member).post("/webhooks/preview", { integration: "helloworld", body: hello })).body
      .messages[0].topic;
  /** Redis pub/sub is asynchronous: wait (bounded) until the second process has dropped its cache. */
  async function untilSecondSees(topic: string): Promise<string> {
    let seen = await previewTopic();
    for (let i = 0; i < 100 && seen !== topic; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await previewTopic();
    }
    return seen;
  }

  it("a change made through one process is used by the other, and so is its removal", async () => {
    // The second process caches "no overrides" first.
    expect((await postToSecond()).status).toBe(200);
    expect(await previewTopic()).toBe("Hello World");

    const set = await first.as(first.users.admin).request("PUT", "/webhooks/overrides/helloworld/hello", {
      topic: "Across {{featured_title}}",
    });
    expect(set.status).toBe(200);
    expect(await untilSecondSees("Across Aurora")).toBe("Across Aurora");
    const before = await latestMessageId(first as TestServer);
    expect((await postToSecond()).status).toBe(200);
    expect((await messagesSince(first, before, first.users.bot.id)).map((m) => m.topic)).toEqual(["Across Aurora"]);

    expect((await first.as(first.users.admin).delete("/webhooks/overrides/helloworld/hello")).status).toBe(200);
    expect(await untilSecondSees("Hello World")).toBe("Hello World");
  });
});
