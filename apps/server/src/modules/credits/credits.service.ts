import type { LicensesService } from '../licenses/licenses.service';
import { randomUUID } from 'node:crypto';
import type { CreditHistoryEntry, CreditsBalance, RedeemProduct } from '@keyport/shared/contracts/credits';
import type { Key } from '@keyport/shared/contracts/keys';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, badRequest, notFound } from '../../http/errors';
import type { RateLimiter } from '../../http/rate-limit';
import type { Outbox } from '../../integrations/email/outbox';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { ConnectService } from '../connect/connect.service';
import type { KeysService } from '../keys/keys.service';
import { redeemedKeyEmail } from './credit-emails';
import { buildCreditHistory, reportOfSource } from './credit-history';
import * as repo from './credits.repo';
import * as reportsRepo from './store-reports.repo';
import {
  createCreditLedger,
  INSUFFICIENT_CREDITS,
  insufficientCredits,
  pendingNote,
  toLedgerEntry,
} from './credit-ledger';
import { createStoreReports } from './store-reports.service';

export const REDEEM_PRODUCT_NOT_FOUND = 'This license is no longer available.';
export const UNSUPPORTED_PRODUCT = 'This product cannot be bought with credits.';

const LICENSE_TIERS: readonly Tier[] = ['REGULAR', 'PRO'];

/** The tier a redeem product mints: grant_type license_level, grant_value REGULAR or PRO in any case; else null. */
export function licenseTierOf(product: Pick<repo.RedeemProductRow, 'grantType' | 'grantValue'>): Tier | null {
  if (product.grantType.trim().toLowerCase() !== 'license_level') return null;
  const value = product.grantValue.trim().toUpperCase();
  return LICENSE_TIERS.find((tier) => tier === value) ?? null;
}

export interface CreditsServiceDeps {
  db: Db;
  keys: Pick<KeysService, 'mintOwnedKey' | 'connectionsTo' | 'listKeys'>;
  connect: Pick<ConnectService, 'listUserStores'>;
  auth: Pick<AuthService, 'loadUser' | 'findByEmail' | 'emailsOf'>;
  audit: Pick<AuditService, 'record'>;
  outbox: Pick<Outbox, 'enqueue' | 'flush'>;
  /**
   * Issue 13: the evidence of pirated copies (validation check-ins), for report rows, the staff queue and ADR 037's
   * automatic approvals.
   */
  licenses: Pick<LicensesService, 'sightingsOf' | 'reportEvidenceOf'>;
  /** Report submissions per user (a day's allowance). */
  reportLimit: RateLimiter;
}

/**
 * Credits (issue 11): the ledger, buying licenses with credits (debit and mint in one transaction), store reports
 * (store-reports.service.ts), staff adjustments and redeem products.
 */
export function createCreditsService(deps: CreditsServiceDeps) {
  const { db, keys, connect, auth, audit, outbox, licenses, reportLimit } = deps;
  const ledger = createCreditLedger({ db });

  const reports = createStoreReports({ db, ledger, keys, connect, auth, audit, licenses, reportLimit });

  async function balance(userId: number): Promise<CreditsBalance> {
    const [account, pending, canReport] = await Promise.all([
      ledger.balanceOf(userId),
      reports.pendingCredits(userId),
      reports.canReport(userId),
    ]);
    return { ...account, pending, can_report: canReport };
  }

  /**
   * The customer's credit history (ADR 037): ledger movements and the report credits that never reached the balance,
   * read in one snapshot (a report approved meanwhile is one line, never two or none).
   */
  async function customerHistory(userId: number): Promise<CreditHistoryEntry[]> {
    const limit = 50;
    return db.transaction(
      async (tx) => {
        const [ledgerRows, uncredited] = await Promise.all([
          repo.listLedger(tx, userId, limit),
          reportsRepo.listUncreditedReports(tx, userId, limit),
        ]);
        const reportIds = [...new Set(ledgerRows.flatMap((row) => reportOfSource(row.sourceRef)?.reportId ?? []))];
        const named = await reportsRepo.findReports(tx, reportIds);
        return buildCreditHistory({
          ledger: ledgerRows,
          reports: new Map(named.map((report) => [report.id, report])),
          uncredited,
          limit,
        });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  }

  /**
   * A refusal for too few credits, told the credits pending review when there are any (ADR 037: they exist, and are
   * never spendable until staff approve their reports).
   */
  const explainPending = (userId: number) => async (error: unknown) => {
    if (error instanceof AppError && error.code === INSUFFICIENT_CREDITS) {
      const pending = await reports.pendingCredits(userId);
      if (pending > 0) throw insufficientCredits(`${error.message}${pendingNote(pending)}`);
    }
    throw error;
  };

  /** Debit the product's cost and mint its key for the caller, in one transaction; the key is emailed after commit. */
  async function redeemProduct(userId: number, product: repo.RedeemProductRow) {
    const tier = licenseTierOf(product);
    if (!tier) throw badRequest(UNSUPPORTED_PRODUCT, 'unsupported_product');
    const user = await auth.loadUser(userId);
    const result = await db.transaction(async (tx) => {
      const paid = await ledger.debit(tx, {
        userId,
        amount: product.costCredits,
        sourceRef: `redeem:${randomUUID()}`,
        note: product.name,
      });
      const minted = await keys.mintOwnedKey(tx, userId, tier);
      await repo.insertRedemption(tx, {
        userId,
        redeemProductId: product.id,
        costCredits: product.costCredits,
        tier,
        licenseKeyId: minted.id,
        ledgerId: paid.entry.id,
      });
      await audit.record(tx, {
        actor: { type: 'user', id: userId },
        action: 'credits.redeemed',
        object: { type: 'license_key', id: minted.id },
        customerUserId: userId,
        data: { redeem_product_id: product.id, tier, cost_credits: product.costCredits, ledger_id: paid.entry.id },
      });
      await outbox.enqueue(tx, redeemedKeyEmail({ to: user.email, name: user.name, tier, apiKey: minted.key.api_key }));
      return { key: minted.key, balance: paid.balance };
    });
    void outbox.flush();
    return result;
  }

  return {
    ...ledger,

    /** §7 the caller's balance, what is owed, what is pending review, and whether they may still report. */
    balance,

    /** GET /credits/history: the caller's own history (ADR 037). */
    customerHistory,

    /** §7 GET /credits/redeem-products: every active product (the dialog keeps the licenses, §5). */
    async listActiveProducts(): Promise<RedeemProduct[]> {
      return (await repo.listRedeemProducts(db, { activeOnly: true })).map(toRedeemProduct);
    },

    /** §7 POST /credits/redeem. */
    async redeem(userId: number, productId: number): Promise<{ key: Key; balance: number }> {
      const product = await repo.findActiveRedeemProduct(db, productId);
      if (!product) throw notFound(REDEEM_PRODUCT_NOT_FOUND, 'redeem_product_not_found');
      return redeemProduct(userId, product).catch(explainPending(userId));
    },

    /** §7 POST /keys/create: the same, with the tier's active license product. */
    async createKey(userId: number, tier: string): Promise<{ key: Key; balance: number }> {
      const product = await repo.findActiveLicenseProduct(db, tier);
      if (!product) throw notFound(REDEEM_PRODUCT_NOT_FOUND, 'redeem_product_not_found');
      return redeemProduct(userId, product).catch(explainPending(userId));
    },

    /** §7 POST /credits/report-store and the staff report queue (store-reports.service.ts). */
    reportStores: reports.reportStores,
    listReports: reports.listReports,
    approveReport: reports.approveReport,
    rejectReport: reports.rejectReport,
    reportsOf: reports.reportsOf,
    /** Store reports naming each of these domains, by status (the sightings staff review, issue 13). */
    reportCountsOfDomains: reports.reportCountsOfDomains,

    // ---- Staff ----

    /**
     * POST /staff/credits: grant (amount > 0) or remove (amount < 0, never below zero). The reason is the audit row's
     * and the ledger entry's note (the customer sees it in their history).
     */
    async adjust(staffId: number, input: { email: string; amount: number; reason: string }) {
      const customer = await auth.findByEmail(input.email);
      if (!customer) throw notFound('No account uses that email address.', 'user_not_found');
      const sourceRef = `staff:${randomUUID()}`;
      const moved = await db.transaction(async (tx) => {
        const result =
          input.amount > 0
            ? await ledger.grant(tx, {
                userId: customer.id,
                kind: 'grant',
                amount: input.amount,
                sourceRef,
                note: input.reason,
                actorId: staffId,
              })
            : await ledger.remove(tx, {
                userId: customer.id,
                email: customer.email,
                amount: -input.amount,
                sourceRef,
                note: input.reason,
                actorId: staffId,
              });
        // A fresh source reference: never used before.
        if (!result) throw new Error('staff credit adjustment found its source already used');
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: input.amount > 0 ? 'credits.granted' : 'credits.removed',
          object: { type: 'credit_ledger', id: result.entry.id },
          customerUserId: customer.id,
          reason: input.reason,
          data: { amount: input.amount, balance: result.balance, owed: result.owed },
        });
        return result;
      });
      return { user_id: customer.id, balance: moved.balance, owed: moved.owed, entry: toLedgerEntry(moved.entry) };
    },

    async staffListProducts() {
      return (await repo.listRedeemProducts(db, { activeOnly: false })).map(toStaffRedeemProduct);
    },

    async createProduct(staffId: number, values: RedeemProductInput) {
      return db.transaction(async (tx) => {
        const row = await repo.insertRedeemProduct(tx, fromProductInput(values));
        await recordProductChange(tx, staffId, 'redeem_product.created', values.reason, row);
        return toStaffRedeemProduct(row);
      });
    },

    async updateProduct(staffId: number, id: number, values: RedeemProductInput) {
      return db.transaction(async (tx) => {
        const row = await repo.updateRedeemProduct(tx, id, fromProductInput(values));
        if (!row) throw notFound('Redeem product not found.', 'redeem_product_not_found');
        await recordProductChange(tx, staffId, 'redeem_product.updated', values.reason, row);
        return toStaffRedeemProduct(row);
      });
    },

    /** Retires a product: it stays (redemptions refer to it) and is no longer offered. */
    async retireProduct(staffId: number, id: number, reason: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.updateRedeemProduct(tx, id, { active: false });
        if (!row) throw notFound('Redeem product not found.', 'redeem_product_not_found');
        await recordProductChange(tx, staffId, 'redeem_product.retired', reason, row);
      });
    },

    /** Puts the seeded products in place (by name; existing ones keep what staff made of them). */
    ensureProducts: (rows: repo.RedeemProductValues[], tx: DbOrTx = db) => repo.insertMissingRedeemProducts(tx, rows),
  };

  async function recordProductChange(
    tx: DbOrTx,
    staffId: number,
    action: string,
    reason: string,
    row: repo.RedeemProductRow,
  ) {
    await audit.record(tx, {
      actor: { type: 'staff', id: staffId },
      action,
      object: { type: 'redeem_product', id: row.id },
      reason,
      data: {
        name: row.name,
        grant_type: row.grantType,
        grant_value: row.grantValue,
        cost_credits: row.costCredits,
        active: row.active,
      },
    });
  }
}
export type CreditsService = ReturnType<typeof createCreditsService>;

export interface RedeemProductInput {
  name: string;
  description: string;
  grant_type: string;
  grant_value: string;
  cost_credits: number;
  active?: boolean;
  /** Why staff made the change (issue 12): the audit entry keeps it. */
  reason: string;
}

function fromProductInput(input: RedeemProductInput): repo.RedeemProductValues {
  return {
    name: input.name,
    description: input.description,
    grantType: input.grant_type,
    grantValue: input.grant_value,
    costCredits: input.cost_credits,
    active: input.active ?? true,
  };
}

export function toRedeemProduct(row: repo.RedeemProductRow): RedeemProduct {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    grant_type: row.grantType,
    grant_value: row.grantValue,
    cost_credits: row.costCredits,
  };
}

function toStaffRedeemProduct(row: repo.RedeemProductRow) {
  return {
    ...toRedeemProduct(row),
    active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
