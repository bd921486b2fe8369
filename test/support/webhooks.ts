// Helpers for webhook tests: post raw bodies to /api/v1/external/<name> and read back what the
// bot stored, straight from the database.
import type { TestServer, TestUser } from "./harness";
import { harnessSignedBody } from "./snsSigning";

export interface WebhookResponse {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

export interface StoredMessage {
  id: number;
  topic: string;
  content: string;
  type: string;
  stream_id: number | null;
  sender_id: number;
  client: string;
  dm_key: string | null;
}

export async function postWebhook(
  server: TestServer,
  name: string,
  options: {
    query?: Record<string, string | undefined>;
    headers?: Record<string, string>;
    body?: string | Buffer;
    contentType?: string;
    apiKey?: string | null;
    user?: TestUser;
    /** false: an Amazon SNS body is sent as given, not signed with the harness key (test/support/snsSigning.ts). */
    snsSign?: boolean;
  } = {},
): Promise<WebhookResponse> {
  const query = new URLSearchParams();
  const apiKey = options.apiKey === undefined ? (options.user ?? server.users.bot).apiKey : options.apiKey;
  if (apiKey !== null) query.set("api_key", apiKey);
  for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) query.set(k, v);
  const qs = query.toString();
  const res = await fetch(`${server.url}/api/v1/external/${name}${qs ? `?${qs}` : ""}`, {
    method: "POST",
    headers: { "content-type": options.contentType ?? "application/json", ...options.headers },
    body: snsSigned(server, name, options.body ?? "", options.snsSign),
  });
  const text = await res.text();
  let body: Record<string, any>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`POST /external/${name}: non-JSON ${res.status}: ${text.slice(0, 200)}`);
  }
  return { status: res.status, body, headers: res.headers };
}

/** Bodies for a plugin that verifies Amazon SNS signatures carry a real one, as SNS sends them. */
function snsSigned(server: TestServer, name: string, body: string | Buffer, sign = true): string | Buffer {
  const verification = server.deps.integrations.get(name)?.manifest.verification;
  return sign && verification === "aws-sns" ? harnessSignedBody(body) : body;
}

/** Gives the webhook bot a webhook secret (blank: none), as its owner would; the change must succeed. */
export async function setBotSecret(server: TestServer, secret: string): Promise<void> {
  const res = await server.as(server.users.owner).patch(`/bots/${server.users.bot.id}/webhook_secret`, { secret });
  expect(res.status).toBe(200);
}

export async function latestMessageId(server: TestServer): Promise<number> {
  const row = await server.db("messages").max({ id: "id" }).first();
  return Number(row?.id ?? 0);
}

export async function messagesSince(server: TestServer, afterId: number, senderId?: number): Promise<StoredMessage[]> {
  const q = server.db("messages").where("id", ">", afterId).orderBy("id");
  if (senderId !== undefined) q.andWhere("sender_id", senderId);
  return (await q.select(
    "id",
    "topic",
    "content",
    "type",
    "stream_id",
    "sender_id",
    "client",
    "dm_key",
  )) as StoredMessage[];
}
