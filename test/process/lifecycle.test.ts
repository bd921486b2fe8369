// The server as an operator runs it: `npm start` in its own process. SIGTERM stops it gracefully
// (a long-poll in flight gets its final heartbeat, exit code 0), and replicas started together on
// an empty database all come up (the migration lock and the first-run seeding are waited for).
import {
  SERVER_COMMAND,
  freePort,
  serverEnvironment,
  startServerProcess,
  waitUntilListening,
} from "../support/process";

jest.setTimeout(90_000);

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0)) await fn();
});

it("npm start: SIGTERM answers the long-poll in flight with a heartbeat and exits 0", async () => {
  const env = await serverEnvironment("switchboard-proc-", (fn) => cleanups.push(fn));
  const port = await freePort();
  const server = startServerProcess(
    ["npm", "start", "--silent"],
    // Every plugin, as an operator's server starts.
    { ...env, EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: "60", INTEGRATIONS_ENABLED: "" },
    port,
  );
  cleanups.push(() => void server.child.kill("SIGKILL"));
  await waitUntilListening(server, 600);
  const key = /owner +owner@example\.com +API key (\S+)/.exec(server.output())![1];
  const auth = { authorization: "Basic " + Buffer.from(`owner@example.com:${key}`).toString("base64") };
  const base = `http://127.0.0.1:${port}/api/v1`;
  const registered = (await (await fetch(`${base}/register`, { method: "POST", headers: auth })).json()) as any;
  expect(registered.result).toBe("success");

  const poll = fetch(`${base}/events?queue_id=${registered.queue_id}&last_event_id=-1`, { headers: auth });
  await new Promise((resolve) => setTimeout(resolve, 300)); // the poll is now waiting on the server
  server.child.kill("SIGTERM");

  const answer = (await (await poll).json()) as any;
  expect(answer.result).toBe("success");
  expect(answer.events.map((e: { type: string }) => e.type)).toEqual(["heartbeat"]);
  expect(await server.exited).toBe(0);
  // Nothing is left listening on the port.
  await expect(fetch(`${base}/server_settings`)).rejects.toThrow();
});

it("three replicas started at once on an empty database all come up", async () => {
  const env = await serverEnvironment("switchboard-proc-", (fn) => cleanups.push(fn));
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const replicas = ports.map((port) => startServerProcess(SERVER_COMMAND, env, port));
  cleanups.push(() => replicas.forEach((r) => r.child.kill("SIGKILL")));
  await Promise.all(replicas.map((r) => waitUntilListening(r, 600)));
  for (const r of replicas) {
    const res = await fetch(`http://127.0.0.1:${r.port}/api/v1/server_settings`);
    expect(res.status).toBe(200);
  }
  // Exactly one of them seeded the demo organization.
  expect(replicas.filter((r) => /Created a demo organization/.test(r.output()))).toHaveLength(1);
  for (const r of replicas) r.child.kill("SIGTERM");
  expect(await Promise.all(replicas.map((r) => r.exited))).toEqual([0, 0, 0]);
});
