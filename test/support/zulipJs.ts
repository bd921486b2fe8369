// The official JavaScript client (zulip-js) configured for a test server user.
import type { TestServer, TestUser } from "./harness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require("zulip-js");

export type ZulipJsClient = Record<string, any> & {
  callEndpoint(path: string, method: string, params?: Record<string, unknown>): Promise<any>;
};

export async function zulipJs(server: TestServer, user: TestUser): Promise<ZulipJsClient> {
  return zulipInit({ username: user.email, apiKey: user.apiKey, realm: server.url });
}
