import { creditsLabel } from '@keyport/shared/domain/credit-packs';
import type { CreditLedgerEntry } from '@keyport/shared/contracts/credits';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, conflict } from '../../http/errors';
import * as repo from './credits.repo';

// The credit ledger on its own (issue 21): the credits service and the store reports both build on it, so neither
// imports the other's type (they did: an import circle).

export const INSUFFICIENT_CREDITS = 'insufficient_credits';

/** A movement's result: the account after it and its ledger row. */
export interface CreditMovement {
  balance: number;
  owed: number;
  entry: repo.CreditLedgerRow;
}

export interface GrantInput {
  userId: number;
  kind: 'grant' | 'purchase';
  amount: number;
  /** Unique per source ('report:12', 'order:34', 'staff:<uuid>'): a second grant for one source changes nothing. */
  sourceRef: string;
  note: string | null;
  actorId?: number | null;
}

export interface DebitInput {
  userId: number;
  amount: number;
  sourceRef: string;
  note: string | null;
  /** What is being paid for, in the refusal ('this license costs 2 credits and you have 1'). */
  item?: string;
}

export interface ClawbackInput {
  userId: number;
  amount: number;
  sourceRef: string;
  note: string | null;
  actorId?: number | null;
}

export interface RemoveInput {
  userId: number;
  /** For the refusal: "This would take {email}'s balance below zero". */
  email: string;
  amount: number;
  sourceRef: string;
  note: string | null;
  actorId: number;
}

/** Thrown inside the savepoint when the source was already used: the balance change is rolled back. */
class SourceAlreadyUsed extends Error {}

function assertPositive(amount: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`Credit amounts are positive integers: ${amount}`);
}

export function insufficientCredits(message: string) {
  return new AppError(402, message, INSUFFICIENT_CREDITS);
}

/**
 * Added to a refusal when store reports hold credits back (ADR 037): they exist, and cannot be spent until approved.
 */
export function pendingNote(pending: number): string {
  if (pending <= 0) return '';
  return pending === 1
    ? ' 1 credit is pending review: it can be spent once our team approves your store report.'
    : ` ${pending} credits are pending review: they can be spent once our team approves your store reports.`;
}

/** The refusal of a spend the account cannot cover: what is owed first, then the shortfall. */
export function insufficientMessage(account: repo.AccountState, amount: number, item = 'this license'): string {
  if (account.owed > 0) {
    return `Insufficient credits: your account owes ${creditsLabel(account.owed)} from a rejected store report. Earn or buy credits to repay it first.`;
  }
  return `Insufficient credits: ${item} costs ${creditsLabel(amount)} and you have ${account.balance}.`;
}

export function toLedgerEntry(row: repo.CreditLedgerRow): CreditLedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amount: row.amount,
    balance_after: row.balanceAfter,
    note: row.note,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The credit ledger: every movement is one conditional UPDATE of the account (never a read-then-write) and one
 * append-only ledger row with a unique source reference, inside the caller's transaction. The balance change and the
 * ledger row run in a savepoint: when the source was already used, the savepoint rolls back and nothing moved.
 */
export function createCreditLedger({ db }: { db: Db }) {
  async function move(
    tx: DbOrTx,
    row: {
      userId: number;
      kind: repo.CreditLedgerRow['kind'];
      sign: 1 | -1;
      amount: number;
      sourceRef: string;
      note: string | null;
      actorId: number | null;
    },
    change: (sp: DbOrTx) => Promise<repo.AccountState>,
  ): Promise<CreditMovement | null> {
    assertPositive(row.amount);
    // Already used: nothing to do (the unique index still decides for two at the same moment, below).
    if (await repo.findLedgerEntryBySource(tx, row.sourceRef)) return null;
    await repo.ensureAccount(tx, row.userId);
    try {
      return await tx.transaction(async (sp) => {
        const after = await change(sp);
        const entry = await repo.insertLedgerEntry(sp, {
          userId: row.userId,
          kind: row.kind,
          amount: row.sign * row.amount,
          balanceAfter: after.balance,
          owedAfter: after.owed,
          sourceRef: row.sourceRef,
          note: row.note,
          actorId: row.actorId,
        });
        if (!entry) throw new SourceAlreadyUsed();
        return { ...after, entry };
      });
    } catch (error) {
      if (error instanceof SourceAlreadyUsed) return null;
      throw error;
    }
  }

  const required = (state: repo.AccountState | null) => {
    // ensureAccount ran in this transaction: the row exists.
    if (!state) throw new Error('credit account missing');
    return state;
  };

  return {
    /** Adds credits (repaying what is owed first). Null when `sourceRef` was already used. */
    grant(tx: DbOrTx, input: GrantInput): Promise<CreditMovement | null> {
      return move(tx, { ...input, sign: 1, actorId: input.actorId ?? null }, async (sp) =>
        required(await repo.addCredits(sp, input.userId, input.amount)),
      );
    },

    /**
     * Spends credits: 402 (code `insufficient_credits`, the message contains 'Insufficient') when the balance does
     * not cover it or anything is owed. A used `sourceRef` is a 409.
     */
    async debit(tx: DbOrTx, input: DebitInput): Promise<CreditMovement> {
      const moved = await move(tx, { ...input, kind: 'debit', sign: -1, actorId: null }, async (sp) => {
        const after = await repo.spendCredits(sp, input.userId, input.amount, { requireNothingOwed: true });
        if (after) return after;
        const account = required(await repo.findAccount(sp, input.userId));
        throw insufficientCredits(insufficientMessage(account, input.amount, input.item));
      });
      if (!moved) throw conflict('This payment was already made.', 'duplicate_source');
      return moved;
    },

    /**
     * Takes credits back (a rejected report, a refunded pack): what the balance has, the rest becomes owed. Null when
     * `sourceRef` was already used.
     */
    clawback(tx: DbOrTx, input: ClawbackInput): Promise<CreditMovement | null> {
      return move(tx, { ...input, kind: 'clawback', sign: -1, actorId: input.actorId ?? null }, async (sp) =>
        required(await repo.clawCredits(sp, input.userId, input.amount)),
      );
    },

    /** A staff removal: never below zero and never creates owed (409 code `insufficient_credits` otherwise). */
    async remove(tx: DbOrTx, input: RemoveInput): Promise<CreditMovement> {
      const moved = await move(tx, { ...input, kind: 'debit', sign: -1 }, async (sp) => {
        const after = await repo.spendCredits(sp, input.userId, input.amount, { requireNothingOwed: false });
        if (after) return after;
        const account = required(await repo.findAccount(sp, input.userId));
        throw conflict(
          `This would take ${input.email}'s balance below zero (balance ${account.balance}).`,
          INSUFFICIENT_CREDITS,
        );
      });
      if (!moved) throw conflict('This adjustment was already made.', 'duplicate_source');
      return moved;
    },

    /** The account now (0 and 0 before the first movement). */
    async balanceOf(userId: number, tx: DbOrTx = db): Promise<repo.AccountState> {
      return (await repo.findAccount(tx, userId)) ?? { balance: 0, owed: 0 };
    },

    /** The balances of these users (0 when absent from the map): the staff customer search. */
    balancesOf: (userIds: number[], tx: DbOrTx = db) => repo.findBalances(tx, userIds),

    /** The latest 50 movements, newest first. */
    async history(userId: number, tx: DbOrTx = db): Promise<CreditLedgerEntry[]> {
      return (await repo.listLedger(tx, userId, 50)).map(toLedgerEntry);
    },
  };
}
export type CreditLedger = ReturnType<typeof createCreditLedger>;
