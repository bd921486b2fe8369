// Uploaded files: storing an upload, who may read it, the requester's list, deletion, and
// linking messages to the files they reference (`/user_uploads/<path_id>` in the content).
import crypto from "node:crypto";
import type { Db, Queryable } from "../../db/knex";
import {
  deleteAttachment,
  findAttachmentById,
  findAttachmentByPathId,
  findAttachmentsByPathIds,
  insertAttachment,
  linkAttachmentsToMessage,
  linkedMessageIds,
  listOwnedAttachments,
  realmUploadSpaceUsed,
  linkedMessageStreamIds,
  userReceivedLinkedMessage,
  type AttachmentRow,
} from "../../db/attachments";
import { nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import { findStreamById } from "../../db/streams";
import { canReadChannelHistory } from "../messages/access";
import { withTransaction } from "../../db/transaction";
import { ApiError, Errors } from "../../errors";
import type { Notification } from "../../events/bus";
import type { FileStore } from "./fileStore";

const storeKey = (pathId: string) => `user_uploads/${pathId}`;

/** A file name safe in a URL path and on disk: letters, digits, `_ . -`; runs of spaces/dashes → one dash. */
export function sanitizeFileName(name: string): string {
  const base = name.normalize("NFKC").split(/[\\/]/).pop() ?? "";
  let clean = base
    .replace(/[^\p{L}\p{N}_.\s-]/gu, "")
    .trim()
    .replace(/[-\s]+/g, "-");
  clean = clean.replace(/^\.+/, "");
  const chars = [...clean];
  if (chars.length > 100) {
    const dot = clean.lastIndexOf(".");
    const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : "";
    clean = chars.slice(0, 100 - [...ext].length).join("") + ext;
  }
  return clean === "" ? "uploaded-file" : clean;
}

/** URL of an upload: each path segment percent-encoded. */
export function uploadUrl(pathId: string): string {
  return "/user_uploads/" + pathId.split("/").map(encodeURIComponent).join("/");
}

/** path_ids referenced by `/user_uploads/<realm_id>/<random>/<name>` links in message content. */
export function extractPathIds(content: string): string[] {
  const found = new Set<string>();
  for (const match of content.matchAll(/\/user_uploads\/(\d+\/[A-Za-z0-9_-]+\/[^\s)\]>"'<?#/]+)/g)) {
    try {
      found.add(decodeURIComponent(match[1]));
    } catch {
      /* a malformed %-escape is just not a link to an upload */
    }
  }
  return [...found];
}

function formatAttachment(row: AttachmentRow, messageIds: number[]) {
  return {
    id: row.id,
    name: row.file_name,
    path_id: row.path_id,
    size: Number(row.size),
    create_time: Number(row.create_time),
    message_ids: messageIds,
  };
}

function attachmentEvent(
  realmId: number,
  ownerId: number,
  op: "add" | "remove",
  attachment: Record<string, unknown>,
  used: number,
): Notification {
  return { realmId, userIds: [ownerId], event: { type: "attachment", op, attachment, upload_space_used: used } };
}

/**
 * The name shown for a file (answer, attachment list, Content-Disposition): the client's name
 * without any directory part (`../../x` → `x`), control characters or surrounding blanks.
 */
export function displayFileName(name: string | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/\p{Cc}|\p{Cf}/gu, "")
    .trim()
    .replace(/^\.+$/, "");
  return [...clean].slice(0, 191).join("") || "uploaded-file";
}

export async function storeUpload(
  db: Db,
  store: FileStore,
  input: { realm: RealmRow; user: UserRow; tempPath: string; originalName: string; size: number },
): Promise<{ pathId: string; fileName: string; notifications: Notification[] }> {
  // The name shown back (response, attachment list, Content-Disposition) is the sanitised one:
  // a client-supplied `../x` or control characters never travel further than this function.
  const fileName = displayFileName(input.originalName);
  const pathId = `${input.realm.id}/${crypto.randomBytes(18).toString("base64url")}/${sanitizeFileName(fileName)}`;
  await store.putFromTemp(storeKey(pathId), input.tempPath);
  try {
    const row: Omit<AttachmentRow, "id"> = {
      realm_id: input.realm.id,
      owner_id: input.user.id,
      path_id: pathId,
      file_name: fileName,
      size: input.size,
      content_type: null,
      create_time: nowSeconds(),
    };
    const id = await insertAttachment(db, row);
    const used = await realmUploadSpaceUsed(db, input.realm.id);
    return {
      pathId,
      fileName,
      notifications: [
        attachmentEvent(input.realm.id, input.user.id, "add", formatAttachment({ id, ...row }, []), used),
      ],
    };
  } catch (err) {
    await store.delete(storeKey(pathId)); // no row, so no file either
    throw err;
  }
}

/**
 * The reference's rule: the uploader may always read a file; anyone else only through a message
 * linking it that they may read (their own row, or a channel whose history they may read, the
 * same rule as fetching that message). A later subscriber of a channel whose history is not
 * shared with subscribers does not get the files of its earlier messages.
 */
export async function canReadAttachment(q: Queryable, user: UserRow, attachment: AttachmentRow): Promise<boolean> {
  if (attachment.realm_id !== user.realm_id) return false;
  if (attachment.owner_id === user.id) return true;
  if (await userReceivedLinkedMessage(q, attachment.id, user.id)) return true;
  for (const streamId of await linkedMessageStreamIds(q, attachment.id)) {
    const stream = await findStreamById(q, user.realm_id, streamId);
    if (stream && (await canReadChannelHistory(q, user, stream))) return true;
  }
  return false;
}

/** The stored file behind a path_id, if the user may read it; 404/403 otherwise. */
export async function openUpload(
  db: Db,
  store: FileStore,
  user: UserRow,
  pathId: string,
): Promise<{ absolutePath: string; size: number; fileName: string }> {
  const attachment = await findAttachmentByPathId(db, pathId);
  if (!attachment || attachment.realm_id !== user.realm_id) throw Errors.notFound("File not found");
  if (!(await canReadAttachment(db, user, attachment))) {
    throw new ApiError("BAD_REQUEST", "You are not authorized to view this file.", {}, { status: 403 });
  }
  const file = await store.get(storeKey(pathId));
  if (!file) throw Errors.notFound("File not found");
  return { ...file, fileName: attachment.file_name };
}

export async function listAttachments(q: Queryable, realm: RealmRow, user: UserRow) {
  const rows = await listOwnedAttachments(q, user.id);
  const links = await linkedMessageIds(
    q,
    rows.map((r) => r.id),
  );
  return {
    attachments: rows.map((r) => formatAttachment(r, links.get(r.id) ?? [])),
    upload_space_used: await realmUploadSpaceUsed(q, realm.id),
  };
}

export async function removeAttachment(
  db: Db,
  store: FileStore,
  realm: RealmRow,
  user: UserRow,
  id: number,
): Promise<Notification[]> {
  const { row, used } = await withTransaction(db, async (trx) => {
    const found = await findAttachmentById(trx, id);
    if (!found || found.owner_id !== user.id) throw Errors.badRequest("Invalid attachment");
    await deleteAttachment(trx, found.id);
    return { row: found, used: await realmUploadSpaceUsed(trx, realm.id) };
  });
  await store.delete(storeKey(row.path_id)); // after commit: a failed delete never leaves a row without its file
  return [attachmentEvent(realm.id, user.id, "remove", { id: row.id }, used)];
}

/** The uploads a message's content references that its sender may see (read before the send's write). */
export async function linkableAttachmentIds(
  q: Queryable,
  ctx: { realm: RealmRow; sender: UserRow; content: string },
): Promise<number[]> {
  const pathIds = extractPathIds(ctx.content);
  if (pathIds.length === 0) return [];
  const linkable: number[] = [];
  for (const attachment of await findAttachmentsByPathIds(q, ctx.realm.id, pathIds)) {
    if (await canReadAttachment(q, ctx.sender, attachment)) linkable.push(attachment.id);
  }
  return linkable;
}

/** messageHooks.afterInsert: link the stored message to those uploads. */
export async function linkMessageAttachments(q: Queryable, messageId: number, attachmentIds: number[]): Promise<void> {
  await linkAttachmentsToMessage(q, messageId, attachmentIds);
}
