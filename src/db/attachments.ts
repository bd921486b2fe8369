// Uploaded files and the messages that link to them.
import type { Queryable } from "./knex";
import { insertReturningId, insertRows } from "./knex";

export interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  size: number;
  content_type: string | null;
  create_time: number;
}

export async function insertAttachment(q: Queryable, row: Omit<AttachmentRow, "id">): Promise<number> {
  return insertReturningId(q, "attachments", row);
}

export async function findAttachmentByPathId(q: Queryable, pathId: string): Promise<AttachmentRow | undefined> {
  return q<AttachmentRow>("attachments").where({ path_id: pathId }).first();
}

export async function findAttachmentsByPathIds(
  q: Queryable,
  realmId: number,
  pathIds: string[],
): Promise<AttachmentRow[]> {
  if (pathIds.length === 0) return [];
  return q<AttachmentRow>("attachments").where({ realm_id: realmId }).whereIn("path_id", pathIds);
}

export async function findAttachmentById(q: Queryable, id: number): Promise<AttachmentRow | undefined> {
  return q<AttachmentRow>("attachments").where({ id }).first();
}

export async function listOwnedAttachments(q: Queryable, ownerId: number): Promise<AttachmentRow[]> {
  return q<AttachmentRow>("attachments").where({ owner_id: ownerId }).orderBy("id");
}

export async function deleteAttachment(q: Queryable, id: number): Promise<void> {
  await q("attachment_messages").where({ attachment_id: id }).delete();
  await q("attachments").where({ id }).delete();
}

/** Bytes used by every upload in the organization. */
export async function realmUploadSpaceUsed(q: Queryable, realmId: number): Promise<number> {
  const row = await q("attachments")
    .where({ realm_id: realmId })
    .sum<{ total: number | string | null }[]>({ total: "size" })
    .first();
  return Number(row?.total ?? 0);
}

export async function linkAttachmentsToMessage(
  q: Queryable,
  messageId: number,
  attachmentIds: number[],
): Promise<void> {
  const unique = [...new Set(attachmentIds)];
  if (unique.length === 0) return;
  await insertRows(
    q,
    "attachment_messages",
    unique.map((attachment_id) => ({ attachment_id, message_id: messageId })),
  );
}

/** attachment id → ids of the messages that link to it. */
export async function linkedMessageIds(q: Queryable, attachmentIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(attachmentIds.map((id) => [id, []]));
  if (attachmentIds.length === 0) return out;
  const rows = await q("attachment_messages")
    .whereIn("attachment_id", attachmentIds)
    .orderBy("message_id")
    .select("attachment_id", "message_id");
  for (const r of rows as { attachment_id: number; message_id: number | string }[])
    out.get(r.attachment_id)!.push(Number(r.message_id));
  return out;
}

/** Did a message linking the file reach this user (a row of their own)? */
export async function userReceivedLinkedMessage(q: Queryable, attachmentId: number, userId: number): Promise<boolean> {
  const received = await q("attachment_messages as am")
    .join("user_messages as um", "um.message_id", "am.message_id")
    .where({ "am.attachment_id": attachmentId, "um.user_id": userId })
    .first("am.message_id");
  return Boolean(received);
}

/** The channels of the messages linking the file (direct messages have none). */
export async function linkedMessageStreamIds(q: Queryable, attachmentId: number): Promise<number[]> {
  const rows = await q("attachment_messages as am")
    .join("messages as m", "m.id", "am.message_id")
    .where({ "am.attachment_id": attachmentId })
    .whereNotNull("m.stream_id")
    .distinct("m.stream_id");
  return (rows as { stream_id: number }[]).map((r) => Number(r.stream_id));
}
