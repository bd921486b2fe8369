// Web sessions, stored in the database so any server process serves them. The cookie carries a random
// 256-bit id; the table keeps only its SHA-256, so a copy of the table signs nobody in. Each session
// has its own CSRF token (docs/security.md, "Cross-site requests").
import crypto from "node:crypto";
import type { Queryable } from "../../db/knex";
import { findRealmById } from "../../db/realms";
import { bool, nowSeconds, type RealmRow, type UserRow } from "../../db/rows";
import {
  deleteExpiredSessions,
  deleteSessionByHash,
  deleteUserSessions,
  findSessionByHash,
  insertSession,
  touchSession,
  type SessionRow,
} from "../../db/sessions";
import { findUserById } from "../../db/users";

/** A session unused for this long ends (idle expiry): 14 days. */
export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
/** A session ends this long after sign-in whatever its use (absolute expiry): 30 days. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;
/** `last_seen_at` is written at most this often per session (not on every request). */
export const SESSION_TOUCH_SECONDS = 60;

export interface SessionPolicy {
  idleSeconds: number;
  maxAgeSeconds: number;
}

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  idleSeconds: SESSION_IDLE_SECONDS,
  maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
};

export interface NewSession {
  /** The cookie value: shown to the browser only. */
  sessionId: string;
  csrfToken: string;
  expiresAt: number;
}

export interface ActiveSession {
  session: SessionRow;
  user: UserRow;
  realm: RealmRow;
}

export const hashSessionId = (sessionId: string): string => crypto.createHash("sha256").update(sessionId).digest("hex");

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export async function createSession(
  q: Queryable,
  user: Pick<UserRow, "id" | "realm_id">,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<NewSession> {
  const now = nowSeconds();
  const sessionId = crypto.randomBytes(32).toString("base64url");
  const csrfToken = crypto.randomBytes(32).toString("base64url");
  const expiresAt = now + policy.maxAgeSeconds;
  // Sign-ins are rare: a good moment to drop the sessions that have ended.
  await deleteExpiredSessions(q, now, now - policy.idleSeconds);
  await insertSession(q, {
    id_hash: hashSessionId(sessionId),
    user_id: user.id,
    realm_id: user.realm_id,
    csrf_token: csrfToken,
    created_at: now,
    last_seen_at: now,
    expires_at: expiresAt,
  });
  return { sessionId, csrfToken, expiresAt };
}

/**
 * The live session with this cookie value, with its active user and organization; undefined when it
 * does not exist, has ended (idle or absolute expiry: it is then deleted), or its user or organization
 * is deactivated.
 */
export async function findSession(
  q: Queryable,
  sessionId: string,
  policy: SessionPolicy = DEFAULT_SESSION_POLICY,
): Promise<ActiveSession | undefined> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return undefined;
  const idHash = hashSessionId(sessionId);
  const session = await findSessionByHash(q, idHash);
  if (!session) return undefined;
  const now = nowSeconds();
  if (session.expires_at <= now || session.last_seen_at + policy.idleSeconds <= now) {
    await deleteSessionByHash(q, idHash);
    return undefined;
  }
  const [user, realm] = await Promise.all([
    findUserById(q, session.realm_id, session.user_id),
    findRealmById(q, session.realm_id),
  ]);
  if (!user || !realm || !bool(user.is_active) || bool(realm.deactivated)) return undefined;
  if (now - session.last_seen_at >= SESSION_TOUCH_SECONDS) await touchSession(q, session.id, now);
  return { session, user, realm };
}

export async function endSession(q: Queryable, sessionId: string): Promise<void> {
  await deleteSessionByHash(q, hashSessionId(sessionId));
}

/** Ends every session of the user (deactivation, password change), except `exceptSessionId` if given. */
export async function endUserSessions(q: Queryable, userId: number, exceptSessionId?: string): Promise<number> {
  return deleteUserSessions(q, userId, exceptSessionId ? hashSessionId(exceptSessionId) : undefined);
}

/** The session's CSRF token equals `given` (compared in constant time). */
export function csrfTokenMatches(session: Pick<SessionRow, "csrf_token">, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(session.csrf_token);
  const b = Buffer.from(given);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
