// The running code's lists of group settings (no longer imported from the migration) name real
// columns of the migrated schema, on either database.
import { CHANNEL_GROUP_SETTINGS } from "../../src/services/channels/groupSettings";
import { REALM_GROUP_SETTINGS } from "../../src/services/realms/realms";
import { startTestServer, type TestServer } from "../support/harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function missingColumns(table: string, names: readonly string[]): Promise<string[]> {
  const missing: string[] = [];
  for (const name of names) if (!(await server.db.schema.hasColumn(table, name))) missing.push(name);
  return missing;
}

it("every channel group setting is a column of streams", async () => {
  expect(CHANNEL_GROUP_SETTINGS.length).toBeGreaterThan(0);
  expect(await missingColumns("streams", CHANNEL_GROUP_SETTINGS)).toEqual([]);
});

it("every realm group setting is a column of realms", async () => {
  expect(REALM_GROUP_SETTINGS.length).toBeGreaterThan(0);
  expect(await missingColumns("realms", REALM_GROUP_SETTINGS)).toEqual([]);
});
