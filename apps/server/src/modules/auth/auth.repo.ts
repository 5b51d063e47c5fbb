import { and, asc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { passwordResets, sessions, users } from '../../db/schema';

export function findUserByEmail(db: DbOrTx, email: string) {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .then((rows) => rows[0] ?? null);
}

/** Inserts a user; null when the email is already taken (the unique index decides, not a read). */
export async function insertUser(db: DbOrTx, values: typeof users.$inferInsert) {
  const rows = await db.insert(users).values(values).onConflictDoNothing().returning();
  return rows[0] ?? null;
}

export function findUserById(db: DbOrTx, id: number) {
  return db
    .select()
    .from(users)
    .where(eq(users.id, id))
    .then((rows) => rows[0] ?? null);
}

/**
 * Staff customer search (issue 12): users after `afterId` in id order (keyset paging), those whose email contains
 * `emailPart` (lower case) or whose id is in `ids` when either is given.
 */
export function searchUsers(
  db: DbOrTx,
  query: { afterId: number | null; emailPart: string | null; ids: number[]; limit: number },
) {
  const matches =
    query.emailPart === null
      ? undefined
      : or(
          sql`strpos(lower(${users.email}), ${query.emailPart}) > 0`,
          query.ids.length > 0 ? inArray(users.id, query.ids) : undefined,
        );
  return db
    .select({ id: users.id, email: users.email, name: users.name, role: users.role, createdAt: users.createdAt })
    .from(users)
    .where(and(query.afterId === null ? undefined : gt(users.id, query.afterId), matches))
    .orderBy(asc(users.id))
    .limit(query.limit);
}

export function listEmails(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids));
}

export async function insertSession(db: DbOrTx, userId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(sessions).values({ userId, tokenHash, expiresAt });
}

/** The session's user, if the session exists and has not expired. Prepared: it runs on every signed-in call. */
export function prepareFindSessionUser(db: DbOrTx) {
  return db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare('find_session_user');
}

export async function extendSession(db: DbOrTx, sessionId: number, expiresAt: Date) {
  await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, sessionId));
}

export async function deleteSession(db: DbOrTx, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Ends every session of the user; answers the ended sessions' token hashes (to revoke them in every process). */
export async function deleteUserSessions(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((row) => row.tokenHash);
}

/** Ends every session of the user except the one with `keepTokenHash` (the device making the change). */
export async function deleteOtherUserSessions(db: DbOrTx, userId: number, keepTokenHash: string): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash)))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((row) => row.tokenHash);
}

export async function insertPasswordReset(db: DbOrTx, userId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/** Marks a reset token used, once: the `used_at IS NULL` condition makes a second use find nothing. */
export function consumePasswordReset(db: DbOrTx, tokenHash: string, now: Date) {
  return db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
    )
    .returning({ userId: passwordResets.userId })
    .then((rows) => rows[0] ?? null);
}

/** Marks every unused reset link of the user used (after a reset or a password change). */
export async function revokePasswordResets(db: DbOrTx, userId: number, now: Date) {
  await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

export async function updatePasswordHash(db: DbOrTx, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId));
}

export async function updateUserName(db: DbOrTx, userId: number, name: string) {
  await db.update(users).set({ name }).where(eq(users.id, userId));
}
