// Durability under a crash: a real server process takes webhook deliveries, 8 at a time, and is
// killed with SIGKILL in the middle of them; restarted on the same database, it must hold every
// delivery it acknowledged exactly once, and nothing it had not finished half-written (a message
// without its recipients, a cut content). Each delivery carries a unique marker in its content.
// On the database under test (SQLite file, or a fresh MySQL database).
import path from "node:path";
import knex, { type Knex } from "knex";
import {
  SERVER_COMMAND,
  freePort,
  serverEnvironment,
  startServerProcess,
  waitUntilListening,
} from "../support/process";

const DELIVERIES = 300;
const IN_FLIGHT = 8;
/** SIGKILL once this many deliveries have been acknowledged: mid-load, with 8 in flight. */
const KILL_AFTER_ACKS = 120;
jest.setTimeout(180_000);

const marker = (i: number) => `durability-marker-${String(i).padStart(4, "0")}`;
const expectedContent = (m: string) =>
  "Hello! I am happy to be here! :smile:\n" +
  `The Wikipedia featured article for today is **[${m}](https://en.wikipedia.org/wiki/${m})**`;

async function deliver(base: string, apiKey: string, m: string): Promise<boolean> {
  const res = await fetch(`${base}/api/v1/external/helloworld?api_key=${apiKey}&stream=general`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ featured_title: m, featured_url: `https://en.wikipedia.org/wiki/${m}` }),
  });
  const body = (await res.json()) as { result?: string };
  return res.status === 200 && body.result === "success";
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

/** The marker messages as stored, with how many recipient rows each has. */
async function storedMarkers(db: Knex): Promise<{ content: string; rendered: string; recipients: number }[]> {
  const rows: Record<string, unknown>[] = await db("messages as m")
    .leftJoin("user_messages as um", "um.message_id", "m.id")
    .where("m.content", "like", "%durability-marker-%")
    .groupBy("m.id", "m.content", "m.rendered_content")
    .select("m.content", "m.rendered_content as rendered")
    .count({ recipients: "um.user_id" });
  return rows.map((r) => ({
    content: String(r.content),
    rendered: String(r.rendered),
    recipients: Number(r.recipients),
  }));
}

it("after SIGKILL under webhook load, every acknowledged delivery is stored exactly once, nothing half-written", async () => {
  const env = {
    ...(await serverEnvironment("switchboard-durability-", (fn) => cleanups.push(fn))),
    RATE_LIMITING: "false",
  };

  const port = await freePort();
  const first = startServerProcess(SERVER_COMMAND, env, port);
  cleanups.push(() => void first.child.kill("SIGKILL"));
  await waitUntilListening(first);
  const apiKey = /bot +\S+ +API key (\S+)/.exec(first.output())![1];
  const base = `http://127.0.0.1:${port}`;

  // 8 workers take the deliveries in order; the one that sees the 120th acknowledgement kills the server.
  const acknowledged = new Set<string>();
  const attempted = new Set<string>();
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (!killed && next < DELIVERIES) {
      const m = marker(next++);
      attempted.add(m);
      const ok = await deliver(base, apiKey, m).catch(() => false); // cut by the kill: not acknowledged
      if (ok) acknowledged.add(m);
      if (acknowledged.size >= KILL_AFTER_ACKS && !killed) {
        killed = true;
        first.child.kill("SIGKILL");
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await first.exited;
  expect(killed).toBe(true);
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(attempted.size).toBeLessThan(DELIVERIES); // the kill came mid-load

  // Restarted on the same database, the server answers and takes deliveries again.
  const secondPort = await freePort();
  const second = startServerProcess(SERVER_COMMAND, env, secondPort);
  cleanups.push(async () => {
    second.child.kill("SIGKILL");
    await second.exited; // before its database goes
  });
  await waitUntilListening(second);
  expect(/Created a demo organization/.test(second.output())).toBe(false);
  const after = marker(DELIVERIES);
  expect(await deliver(`http://127.0.0.1:${secondPort}`, apiKey, after)).toBe(true);

  const db = knex(
    env.DATABASE_URL
      ? { client: "mysql2", connection: { uri: env.DATABASE_URL } as never, pool: { min: 0, max: 1 } }
      : {
          client: "better-sqlite3",
          connection: { filename: path.join(env.DATA_DIR, "switchboard.sqlite3") },
          useNullAsDefault: true,
        },
  );
  cleanups.push(() => db.destroy());
  const stored = await storedMarkers(db);
  const markers = stored.map((row) => /durability-marker-\d{4}/.exec(row.content)![0]);
  // Exactly once: no marker twice, every acknowledged one there, nothing that was never sent.
  expect(markers.length).toBe(new Set(markers).size);
  expect([...acknowledged].filter((m) => !markers.includes(m))).toEqual([]);
  expect(markers.filter((m) => m !== after && !attempted.has(m))).toEqual([]);
  // Nothing half-written: whole content, rendered, and as many recipients as the message sent after the restart.
  const reference = stored.find((row) => row.content.includes(after))!;
  expect(reference.recipients).toBeGreaterThan(0);
  for (const [i, row] of stored.entries()) {
    expect(row.content).toBe(expectedContent(markers[i]));
    expect(row.rendered).toContain(`>${markers[i]}</a>`);
    expect(row.recipients).toBe(reference.recipients);
  }
});
