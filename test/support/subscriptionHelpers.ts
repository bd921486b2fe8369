// Helpers shared by the subscription/typing/folder tests: error assertions and table snapshots.
import type { ApiResponse } from "./client";
import type { TestServer } from "./harness";

export function expectError(res: ApiResponse, status: number, code: string, msg: string): void {
  expect({ status: res.status, code: res.body.code, msg: res.body.msg, result: res.body.result }).toEqual({
    status,
    code,
    msg,
    result: "error",
  });
}

const TABLES = [
  "streams",
  "subscriptions",
  "user_groups",
  "user_group_members",
  "user_group_subgroups",
  "messages",
  "channel_folders",
];

/** Row counts of the tables these features write, to prove a refused request changed nothing. */
export async function snapshot(server: TestServer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const table of TABLES) out[table] = Number((await server.db(table).count({ n: "*" }).first())?.n);
  out.activeSubs = Number((await server.db("subscriptions").where({ active: true }).count({ n: "*" }).first())?.n);
  return out;
}
