// push_device_tokens (legacy APNs registrations) and client_devices (FL 468 device ids).
import crypto from "node:crypto";
import type { Queryable } from "./knex";
import { insertReturningId } from "./knex";
import { nowSeconds } from "./rows";

export const PUSH_KIND = { apns: 1 } as const;

function tokenKey(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export async function findPushToken(
  q: Queryable,
  userId: number,
  kind: number,
  token: string,
): Promise<{ id: number } | undefined> {
  return q("push_device_tokens")
    .where({ user_id: userId, kind, token_key: tokenKey(token) })
    .first("id");
}

export async function insertPushToken(
  q: Queryable,
  userId: number,
  kind: number,
  token: string,
  appId: string,
): Promise<void> {
  await q("push_device_tokens").insert({
    user_id: userId,
    kind,
    token,
    token_key: tokenKey(token),
    app_id: appId,
    date_created: nowSeconds(),
  });
}

export async function updatePushTokenApp(q: Queryable, id: number, appId: string): Promise<void> {
  await q("push_device_tokens").where({ id }).update({ app_id: appId });
}

export async function deletePushToken(q: Queryable, id: number): Promise<void> {
  await q("push_device_tokens").where({ id }).delete();
}

export async function insertClientDevice(q: Queryable, userId: number): Promise<number> {
  return insertReturningId(q, "client_devices", { user_id: userId, date_created: nowSeconds() });
}
