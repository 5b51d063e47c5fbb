import type { FastifyBaseLogger } from 'fastify';
import { hash, verify } from '@node-rs/argon2';
import { FORGOT_PASSWORD_MESSAGE, PASSWORD_CHANGED_MESSAGE, type User } from '@keyport/shared/contracts/auth';
import type { Db } from '../../db/client';
import type { AuthUser } from '../../http/auth';
import { badRequest, conflict, notFound, unauthorized } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { Outbox } from '../../integrations/email/outbox';
import type { SessionRevocations } from '../../integrations/shared-state/port';
import type { OrderDates } from '../payments/order-dates.service';
import * as repo from './auth.repo';
import { generateSecret, hashSecret } from '../../lib/secrets';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 30 * DAY_MS;
const RESET_TTL_MS = 60 * 60 * 1000;
const SESSION_CACHE_MS = 10_000;
const SESSION_CACHE_MAX = 10_000;
// algorithm 2 is Argon2id (a const enum in @node-rs/argon2, which isolatedModules cannot import).
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';
export const RESET_LINK_INVALID = 'This reset link is invalid or has expired. Ask for a new one.';

export interface AuthServiceDeps {
  db: Db;
  outbox: Outbox;
  publicUrl: () => string;
  limits: { byIp: RateLimiter; byEmail: RateLimiter };
  /** Ended sessions are announced to every process, so none keeps honouring one from its cache. */
  revocations: SessionRevocations;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** The user's legacy orders' dates (`/auth/me`'s `orders`; the payments module owns the one orders table). */
  orderDates: Pick<OrderDates, 'legacyOrdersOf'>;
  now?: () => Date;
}

/** Sign-up, sign-in, sessions (30-day sliding expiry) and password reset. */
export function createAuthService(deps: AuthServiceDeps) {
  const { db, outbox, limits, revocations } = deps;
  const now = deps.now ?? (() => new Date());
  // Recently resolved sessions (per process), so a signed-in page load does not pay a session query on every call.
  // A session that ends (logout, password reset or change) is revoked in every process at once (ADR 032); a new name
  // drops this process's entries at once, and shows in other processes, like a new role, within SESSION_CACHE_MS.
  const findSessionUser = repo.prepareFindSessionUser(db);
  const sessionCache = new Map<string, { user: AuthUser; until: number }>();
  // Counts revocations seen, so a lookup that raced one does not cache what it read before it.
  let revocationsSeen = 0;
  revocations.onRevoked((tokenHash) => {
    revocationsSeen += 1;
    sessionCache.delete(tokenHash);
  });
  function forgetUserSessions(userId: number) {
    for (const [key, entry] of sessionCache) if (entry.user.id === userId) sessionCache.delete(key);
  }
  /**
   * Announces ended sessions to every process. The sessions are already deleted and this process's cache already
   * forgot them (`revoke` tells this process first), so an announcement that fails (Redis away) is logged, not
   * answered as an error: the other processes' caches drop them within SESSION_CACHE_MS.
   */
  async function revokeAll(tokenHashes: string[]) {
    await Promise.all(tokenHashes.map((tokenHash) => revocations.revoke(tokenHash))).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'ended sessions not announced to the other processes');
    });
  }
  // Verified against for unknown emails, so a wrong email costs as long as a wrong password.
  const dummyHash = hash('not-a-real-password', ARGON2);

  async function startSession(userId: number): Promise<string> {
    const token = generateSecret();
    await repo.insertSession(db, userId, hashSecret(token), new Date(now().getTime() + SESSION_TTL_MS));
    return token;
  }

  async function loadUser(userId: number): Promise<User> {
    const user = await repo.findUserById(db, userId);
    if (!user) throw notFound('User not found');
    const orders = await deps.orderDates.legacyOrdersOf(userId);
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      has_lifetime_support: user.hasLifetimeSupport ?? null,
      orders: orders.map((order) => ({ id: order.id, created_at: order.createdAt.toISOString() })),
    };
  }

  return {
    hashPassword: (password: string) => hash(password, ARGON2),
    loadUser,

    /** A user's id and email by email (any case), or null: staff act on a customer by email. */
    async findByEmail(email: string): Promise<{ id: number; email: string } | null> {
      const user = await repo.findUserByEmail(db, email);
      return user ? { id: user.id, email: user.email } : null;
    },

    /**
     * Staff customer search: a page of users in id order after `afterId`; with `emailPart`, only those whose email
     * contains it or whose id is in `ids` (the owners of matching keys).
     */
    searchUsers: (query: { afterId: number | null; emailPart: string | null; ids: number[]; limit: number }) =>
      repo.searchUsers(db, query),

    /** A user's account (no secrets) by id, or null: staff open any account. */
    async findAccount(id: number) {
      const user = await repo.findUserById(db, id);
      return user
        ? { id: user.id, email: user.email, name: user.name, role: user.role, createdAt: user.createdAt }
        : null;
    },

    /** The emails of these users, by id (staff lists show who did what). */
    async emailsOf(ids: number[]): Promise<Map<number, string>> {
      const rows = await repo.listEmails(db, [...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, row.email]));
    },

    async signup(input: { email: string; password: string; name: string }) {
      const user = await repo.insertUser(db, {
        email: input.email,
        name: input.name,
        passwordHash: await hash(input.password, ARGON2),
      });
      if (!user) throw conflict('An account with this email already exists. Sign in instead.');
      return { token: await startSession(user.id), user: await loadUser(user.id) };
    },

    /**
     * Only failures count: per IP (an office shares one) and per email. A success clears that account's failures;
     * an IP or email over its allowance is refused whatever the password (429).
     */
    async login(input: { email: string; password: string }, ip: string) {
      const ipKey = `login:${ip}`;
      const emailKey = `login:${input.email}`;
      await limits.byIp.assertAllowed(ipKey);
      await limits.byEmail.assertAllowed(emailKey);
      const user = await repo.findUserByEmail(db, input.email);
      const valid = user
        ? await verify(user.passwordHash, input.password)
        : (await verify(await dummyHash, input.password), false);
      if (!user || !valid) {
        await limits.byIp.record(ipKey);
        await limits.byEmail.record(emailKey);
        throw unauthorized(INVALID_CREDENTIALS, 'invalid_credentials');
      }
      await limits.byEmail.reset(emailKey);
      return { token: await startSession(user.id), user: await loadUser(user.id) };
    },

    async logout(token: string) {
      const tokenHash = hashSecret(token);
      await repo.deleteSession(db, tokenHash);
      await revokeAll([tokenHash]);
    },

    /** The user behind a session token; extends the session when it is more than a day old (sliding expiry). */
    async resolveSession(token: string): Promise<AuthUser | null> {
      const current = now();
      const tokenHash = hashSecret(token);
      const cached = sessionCache.get(tokenHash);
      if (cached && cached.until > current.getTime()) return cached.user;
      const seenBefore = revocationsSeen;
      const row = (await findSessionUser.execute({ tokenHash, now: current }))[0];
      if (!row) {
        sessionCache.delete(tokenHash);
        return null;
      }
      const renewed = current.getTime() + SESSION_TTL_MS;
      if (renewed - row.expiresAt.getTime() > DAY_MS) await repo.extendSession(db, row.sessionId, new Date(renewed));
      const user = { id: row.id, email: row.email, name: row.name, role: row.role };
      if (revocationsSeen !== seenBefore) return user; // read before a revocation arrived: answer, but do not cache
      if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.clear();
      sessionCache.set(tokenHash, {
        user,
        until: Math.min(current.getTime() + SESSION_CACHE_MS, row.expiresAt.getTime()),
      });
      return user;
    },

    async forgotPassword(email: string, ip: string) {
      await limits.byIp.hit(`reset:${ip}`);
      await limits.byEmail.hit(`reset:${email}`);
      const user = await repo.findUserByEmail(db, email);
      if (user) {
        const token = generateSecret();
        const link = `${deps.publicUrl()}/reset-password?token=${token}`;
        await db.transaction(async (tx) => {
          await repo.insertPasswordReset(tx, user.id, hashSecret(token), new Date(now().getTime() + RESET_TTL_MS));
          await outbox.enqueue(tx, {
            to: user.email,
            subject: 'Reset your Keyport password',
            text: `Hello ${user.name},\n\nTo choose a new password, open this link within one hour:\n${link}\n\nIf you did not ask for this, you can ignore this email.`,
          });
        });
        void outbox.flush();
      }
      return { message: FORGOT_PASSWORD_MESSAGE };
    },

    async resetPassword(input: { token: string; password: string }, ip: string) {
      await limits.byIp.hit(`reset:${ip}`);
      const passwordHash = await hash(input.password, ARGON2);
      const { userId, ended } = await db.transaction(async (tx) => {
        const reset = await repo.consumePasswordReset(tx, hashSecret(input.token), now());
        if (!reset) throw badRequest(RESET_LINK_INVALID, 'reset_link_invalid');
        // Any other link of the account, older or newer, stops working with this one.
        await repo.revokePasswordResets(tx, reset.userId, now());
        await repo.updatePasswordHash(tx, reset.userId, passwordHash);
        return { userId: reset.userId, ended: await repo.deleteUserSessions(tx, reset.userId) };
      });
      await revokeAll(ended);
      return { token: await startSession(userId), user: await loadUser(userId) };
    },

    async updateProfile(userId: number, input: { name: string }): Promise<User> {
      await repo.updateUserName(db, userId, input.name);
      forgetUserSessions(userId); // cached sessions carry the old name
      return loadUser(userId);
    },

    /** Sets a new password after checking the current one; every other session of the account ends. */
    async changePassword(
      userId: number,
      currentToken: string,
      input: { current_password: string; new_password: string },
    ) {
      const limitKey = `password-change:${userId}`;
      await limits.byEmail.hit(limitKey);
      const user = await repo.findUserById(db, userId);
      if (!user) throw notFound('User not found');
      if (!(await verify(user.passwordHash, input.current_password)))
        throw badRequest(WRONG_CURRENT_PASSWORD, 'wrong_password');
      await limits.byEmail.reset(limitKey);
      const passwordHash = await hash(input.new_password, ARGON2);
      const currentTokenHash = hashSecret(currentToken);
      const ended = await db.transaction(async (tx) => {
        await repo.updatePasswordHash(tx, userId, passwordHash);
        await repo.revokePasswordResets(tx, userId, now());
        return repo.deleteOtherUserSessions(tx, userId, currentTokenHash);
      });
      await revokeAll(ended);
      return { message: PASSWORD_CHANGED_MESSAGE };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
