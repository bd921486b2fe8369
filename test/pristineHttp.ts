// Node's http and https request functions as they were before any test file's nock patched them.
// Core modules are shared by the test files one Jest worker runs, while each file loads its own
// nock; a nock whose restore() leaves a patch behind (its interceptors share one global slot)
// would sit under the next file's and refuse that file's requests to stubbed hosts. The first file
// of a worker keeps the originals on the core module itself; every file puts them back when it
// ends (test/setupAfterEnv.ts).
import http from "node:http";
import https from "node:https";

const KEY = Symbol.for("switchboard.test.pristineHttp");
const FIELDS = { http: ["ClientRequest", "request", "get"], https: ["request", "get"] } as const;

type Saved = { http: Record<string, unknown>; https: Record<string, unknown> };
const modules = { http, https } as unknown as Record<"http" | "https", Record<string | symbol, unknown>>;

/** Copies the patched fields from one pair of (module-shaped) objects to the other. */
function copyFields(from: Saved, to: Saved): void {
  for (const name of ["http", "https"] as const) for (const field of FIELDS[name]) to[name][field] = from[name][field];
}

if (!modules.http[KEY]) {
  const saved: Saved = { http: {}, https: {} };
  copyFields(modules, saved);
  modules.http[KEY] = saved;
}

/** Puts node's own http/https functions back (after nock.restore()). */
export function restorePristineHttp(): void {
  copyFields(modules.http[KEY] as Saved, modules);
}
