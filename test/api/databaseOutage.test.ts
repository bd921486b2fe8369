// A database outage answers 503 SERVICE_UNAVAILABLE with Retry-After (not a stream of 500s), is
// logged once, leaves what needs no database answering, and ends by itself when the database is
// back. The MariaDB server is one this test starts and kills itself.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startTestServer, type TestServer } from "../support/harness";
import { freePort, killProcess, waitForPort } from "../support/process";

jest.setTimeout(60_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-mariadb-"));
let port: number;
let mariadb: ChildProcess | undefined;

async function startMariadb(): Promise<void> {
  mariadb = spawn(
    "/usr/sbin/mariadbd",
    [
      "--no-defaults",
      `--datadir=${dir}/data`,
      `--port=${port}`,
      `--socket=${dir}/sock`,
      "--bind-address=127.0.0.1",
      "--skip-grant-tables",
      "--user=root",
    ],
    { stdio: "ignore" },
  );
  await waitForPort(port, 200, 100);
}

async function killMariadb(): Promise<void> {
  if (mariadb) await killProcess(mariadb);
}

const logLines: string[] = [];
let server: TestServer;

beforeAll(async () => {
  port = await freePort();
  const install = spawn(
    "mariadb-install-db",
    ["--no-defaults", `--datadir=${dir}/data`, "--auth-root-authentication-method=normal", "--skip-test-db"],
    { stdio: "ignore" },
  );
  await new Promise((resolve) => install.once("exit", resolve));
  await startMariadb();
  const admin = spawn("mariadb", ["--protocol=tcp", "-h127.0.0.1", `-P${port}`, "-uroot", "-e", "CREATE DATABASE sb"]);
  await new Promise((resolve) => admin.once("exit", resolve));
  server = await startTestServer(
    { DATABASE_URL: `mysql://root@127.0.0.1:${port}/sb`, LOG_LEVEL: "info" },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await server?.close().catch(() => undefined);
  await killMariadb();
  fs.rmSync(dir, { recursive: true, force: true });
});

it("with the database up, requests answer normally", async () => {
  expect((await server.as(server.users.member).get("/users/me")).status).toBe(200);
});

describe("with the database killed", () => {
  beforeAll(async () => {
    await killMariadb();
  });

  it("requests that need it answer 503 SERVICE_UNAVAILABLE with Retry-After", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/v1/users/me`, {
        headers: {
          authorization:
            "Basic " + Buffer.from(`${server.users.member.email}:${server.users.member.apiKey}`).toString("base64"),
        },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("5");
      expect(await res.json()).toMatchObject({ result: "error", code: "SERVICE_UNAVAILABLE" });
    }
  });

  it("what needs no database still answers", async () => {
    const res = await fetch(`${server.url}/api/v1/users/me`, { method: "TRACE" });
    expect(res.status).toBe(405);
    const missing = await fetch(`${server.url}/api/v1/no/such/endpoint`);
    expect(missing.status).toBe(404);
  });

  it("logs the outage once, not per request", () => {
    expect(logLines.filter((l) => l.includes("database unreachable"))).toHaveLength(1);
    expect(logLines.filter((l) => l.includes("unhandled error"))).toHaveLength(0);
  });
});

it("when the database is back, requests answer again and the recovery is logged", async () => {
  await startMariadb();
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    status = (await server.as(server.users.member).get("/users/me")).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
  for (let i = 0; i < 40 && !logLines.some((l) => l.includes("reachable again")); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(logLines.some((l) => l.includes("database is reachable again"))).toBe(true);
});
