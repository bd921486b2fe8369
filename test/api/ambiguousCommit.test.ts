// A send whose COMMIT loses its connection (MariaDB): the server may or may not have committed.
// A real fault, through a proxy in front of the test's MariaDB (test/support/mysqlProxy.ts): the
// connection is KILLed on the server at the COMMIT, before or after the server committed, and in
// the last case the database is then unreachable for a while. The send must be answered with what
// happened: stored once, answered with its id and its event published; or, when nobody can tell,
// 503 COMMIT_OUTCOME_UNKNOWN, and GET /messages then says. MySQL only: SQLite commits inside this
// process, so a commit cannot succeed while its caller sees an error.
import { freshDatabaseUrl, startTestServer, usingMysql, type TestServer, type TestUser } from "../support/harness";
import { startMysqlProxy, type MysqlProxy } from "../support/mysqlProxy";

jest.setTimeout(60_000);
const describeOnMysql = usingMysql() ? describe : describe.skip;

describeOnMysql("a send whose COMMIT loses its connection", () => {
  let proxy: MysqlProxy;
  let server: TestServer;
  let database: Awaited<ReturnType<typeof freshDatabaseUrl>>;
  let sends = 0;

  beforeAll(async () => {
    database = await freshDatabaseUrl();
    const direct = new URL(database.url!);
    proxy = await startMysqlProxy({ host: direct.hostname, port: Number(direct.port || 3306) }, database.url!);
    const throughProxy = new URL(database.url!);
    throughProxy.hostname = "127.0.0.1";
    throughProxy.port = String(proxy.port);
    server = await startTestServer({ DATABASE_URL: throughProxy.toString() });
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await database?.drop();
  });

  const marker = () => `ambiguous-commit-marker-${++sends}`;
  const send = (content: string) =>
    server.as(server.users.member).post("/messages", { type: "stream", to: "general", topic: "commit", content });
  const storedIds = async (content: string) =>
    (await server.db("messages").where({ content }).select("id")).map((r: { id: number }) => Number(r.id));

  async function register(user: TestUser): Promise<string> {
    const res = await server.as(user).post("/register", { event_types: ["message"] });
    expect(res.status).toBe(200);
    return res.body.queue_id;
  }
  async function messageEvents(user: TestUser, queueId: string): Promise<number[]> {
    const res = await server.as(user).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(res.status).toBe(200);
    return res.body.events
      .filter((e: { type: string }) => e.type === "message")
      .map((e: { message: { id: number } }) => e.message.id);
  }

  it("committed, but the answer was lost: answered 200 with its id, stored once, its event published", async () => {
    const content = marker();
    const queueId = await register(server.users.other);
    const sprung = proxy.arm("after-commit", content);
    const res = await send(content);
    await sprung;
    expect(res.status).toBe(200);
    const ids = await storedIds(content);
    expect(ids).toEqual([res.body.id]); // not written a second time
    expect(await messageEvents(server.users.other, queueId)).toEqual([res.body.id]);
  });

  it("killed before the server committed: written again, answered 200, stored once", async () => {
    const content = marker();
    const queueId = await register(server.users.other);
    const sprung = proxy.arm("before-commit", content);
    const res = await send(content);
    await sprung;
    expect(res.status).toBe(200);
    expect(await storedIds(content)).toEqual([res.body.id]);
    expect(await messageEvents(server.users.other, queueId)).toEqual([res.body.id]);
  });

  it("when the database cannot say, 503 COMMIT_OUTCOME_UNKNOWN; GET /messages then finds the message", async () => {
    const content = marker();
    const sprung = proxy.arm("after-commit", content, { thenRefuse: true });
    const res = await send(content);
    await sprung;
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      result: "error",
      code: "COMMIT_OUTCOME_UNKNOWN",
      msg:
        "The database connection was lost while the message was being stored, and whether it was stored " +
        "could not be determined (3 checks): look for it (GET /messages) before sending it again",
      checks: 3,
    });
    proxy.acceptConnections();
    // The check docs/security.md describes: the sender's newest messages.
    const narrow = JSON.stringify([{ operator: "sender", operand: server.users.member.email }]);
    let found: { id: number; content: string }[] | undefined;
    for (let i = 0; i < 40 && !found; i++) {
      const page = await server.as(server.users.member).get("/messages", {
        anchor: "newest",
        num_before: 20,
        num_after: 0,
        narrow,
        apply_markdown: false,
      });
      if (page.status === 200) found = page.body.messages;
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(found!.filter((m) => m.content === content)).toHaveLength(1);
    expect(await storedIds(content)).toHaveLength(1);
  });
});
