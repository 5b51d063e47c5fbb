import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { creditAccounts, creditLedger } from '../src/db/schema';
import { AppError } from '../src/http/errors';
import { createTestApp, signUp, type TestApp } from './helpers/test-app';

let t: TestApp;
let people = 0;

beforeAll(async () => {
  t = await createTestApp();
});

const newUser = async () => (await signUp(t, `ledger-${++people}@example.com`, { ip: `10.61.0.${people}` })).id;
const credits = () => t.app.services.credits;

async function ledgerSum(userId: number): Promise<number> {
  const [row] = await t.db
    .select({ sum: sql<string>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(row!.sum);
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('the credit ledger', () => {
  it('grants once per source reference: a second grant for the same source changes nothing', async () => {
    const userId = await newUser();
    const first = await credits().grant(t.db, {
      userId,
      kind: 'grant',
      amount: 3,
      sourceRef: `test:${userId}`,
      note: 'x',
    });
    expect(first).toMatchObject({ balance: 3, owed: 0, entry: { amount: 3, balanceAfter: 3, kind: 'grant' } });
    const again = await credits().grant(t.db, {
      userId,
      kind: 'grant',
      amount: 3,
      sourceRef: `test:${userId}`,
      note: 'x',
    });
    expect(again).toBeNull();
    expect(await credits().balanceOf(userId)).toEqual({ balance: 3, owed: 0 });
  });

  it('grants once when the same source is granted ten times at once', async () => {
    const userId = await newUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.db.transaction((tx) =>
          credits().grant(tx, { userId, kind: 'purchase', amount: 5, sourceRef: `order:race-${userId}`, note: null }),
        ),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await credits().balanceOf(userId)).toEqual({ balance: 5, owed: 0 });
    expect(await ledgerSum(userId)).toBe(5);
  });

  it('debits only what the balance covers, with a message containing "insufficient"', async () => {
    const userId = await newUser();
    await credits().grant(t.db, { userId, kind: 'grant', amount: 1, sourceRef: `test:${userId}`, note: null });
    const error = await refusal(
      credits().debit(t.db, { userId, amount: 2, sourceRef: `redeem:a${userId}`, note: null }),
    );
    expect(error.statusCode).toBe(402);
    expect(error.code).toBe('insufficient_credits');
    expect(error.message).toBe('Insufficient credits: this license costs 2 credits and you have 1.');
    const paid = await credits().debit(t.db, {
      userId,
      amount: 1,
      sourceRef: `redeem:b${userId}`,
      note: 'REGULAR License',
    });
    expect(paid).toMatchObject({ balance: 0, owed: 0, entry: { amount: -1, kind: 'debit' } });
  });

  it('a clawback of a spent credit leaves the account owing; spending is refused until a grant repays it', async () => {
    const userId = await newUser();
    await credits().grant(t.db, { userId, kind: 'grant', amount: 1, sourceRef: `report:t${userId}`, note: null });
    await credits().debit(t.db, { userId, amount: 1, sourceRef: `redeem:c${userId}`, note: null });
    const clawed = await credits().clawback(t.db, {
      userId,
      amount: 1,
      sourceRef: `report:t${userId}:clawback`,
      note: null,
    });
    expect(clawed).toMatchObject({ balance: 0, owed: 1, entry: { amount: -1, owedAfter: 1, kind: 'clawback' } });
    expect(
      await credits().clawback(t.db, { userId, amount: 1, sourceRef: `report:t${userId}:clawback`, note: null }),
    ).toBeNull();

    await credits().grant(t.db, { userId, kind: 'grant', amount: 3, sourceRef: `staff:d${userId}`, note: null });
    const error = await refusal(
      credits().debit(t.db, { userId, amount: 5, sourceRef: `redeem:e${userId}`, note: null }),
    );
    expect(error.message).toBe('Insufficient credits: this license costs 5 credits and you have 2.');
    expect(await credits().balanceOf(userId)).toEqual({ balance: 2, owed: 0 });
    expect(await ledgerSum(userId)).toBe(2);
  });

  it('refuses spending while credits are owed, and a partial clawback takes what the balance has', async () => {
    const userId = await newUser();
    await credits().grant(t.db, { userId, kind: 'grant', amount: 1, sourceRef: `test:f${userId}`, note: null });
    await credits().clawback(t.db, { userId, amount: 3, sourceRef: `test:g${userId}`, note: null });
    expect(await credits().balanceOf(userId)).toEqual({ balance: 0, owed: 2 });
    const error = await refusal(
      credits().debit(t.db, { userId, amount: 1, sourceRef: `redeem:h${userId}`, note: null }),
    );
    expect(error.message).toBe(
      'Insufficient credits: your account owes 2 credits from a rejected store report. Earn or buy credits to repay it first.',
    );
    await credits().grant(t.db, { userId, kind: 'grant', amount: 1, sourceRef: `test:i${userId}`, note: null });
    expect(await credits().balanceOf(userId)).toEqual({ balance: 0, owed: 1 });
    expect(await ledgerSum(userId)).toBe(-1);
  });

  it('a staff removal never takes the balance below zero', async () => {
    const userId = await newUser();
    await credits().grant(t.db, { userId, kind: 'grant', amount: 2, sourceRef: `test:j${userId}`, note: null });
    const error = await refusal(
      credits().remove(t.db, {
        userId,
        email: 'x@example.com',
        amount: 3,
        sourceRef: `staff:k${userId}`,
        note: 'n',
        actorId: userId,
      }),
    );
    expect(error.statusCode).toBe(409);
    expect(error.message).toBe("This would take x@example.com's balance below zero (balance 2).");
    const removed = await credits().remove(t.db, {
      userId,
      email: 'x@example.com',
      amount: 2,
      sourceRef: `staff:l${userId}`,
      note: 'n',
      actorId: userId,
    });
    expect(removed).toMatchObject({ balance: 0, owed: 0 });
  });

  it('the database refuses a negative balance and any change to a ledger row', async () => {
    const userId = await newUser();
    await credits().grant(t.db, { userId, kind: 'grant', amount: 1, sourceRef: `test:m${userId}`, note: null });
    await expect(
      t.db.update(creditAccounts).set({ balance: -1 }).where(eq(creditAccounts.userId, userId)),
    ).rejects.toThrow();
    await expect(
      t.db.update(creditLedger).set({ amount: 100 }).where(eq(creditLedger.userId, userId)),
    ).rejects.toThrow();
    await expect(t.db.delete(creditLedger).where(eq(creditLedger.userId, userId))).rejects.toThrow();
  });
});
