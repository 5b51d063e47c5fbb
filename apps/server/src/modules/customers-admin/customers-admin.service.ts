import type { StaffCustomer, StaffCustomerKey, StaffCustomerSummary } from '@keyport/shared/contracts/staff-customers';
import { STAFF_CUSTOMERS_PAGE_SIZE } from '@keyport/shared/contracts/staff-customers';
import type { Tier } from '@keyport/shared/domain/tiers';
import type { Db } from '../../db/client';
import { notFound } from '../../http/errors';
import type { Outbox } from '../../integrations/email/outbox';
import type { AuditService } from '../audit/audit.service';
import type { AuthService } from '../auth/auth.service';
import type { ConnectService } from '../connect/connect.service';
import type { CreditsService } from '../credits/credits.service';
import type { OrderHistory } from '../payments/order-history.service';
import type { KeysService, StaffKeyRow } from '../keys/keys.service';
import type { PaymentsService } from '../payments/payments.service';
import type { ThemeFileUpdatesService } from '../theme-file-updates/theme-file-updates.service';
import { keyReminderEmail, mintedKeyEmail } from './customer-key-emails';

/** A search by key or domain looks at this many owners at most (a domain prefix as short as one letter). */
const MAX_MATCHING_OWNERS = 1000;

export const CUSTOMER_NOT_FOUND = 'Customer not found.';

export interface CustomersAdminDeps {
  db: Db;
  auth: Pick<AuthService, 'searchUsers' | 'findAccount'>;
  keys: Pick<
    KeysService,
    | 'listKeysForStaff'
    | 'requireOwnedKeyForStaff'
    | 'countKeysByOwners'
    | 'findOwnersMatching'
    | 'releaseKeyById'
    | 'mintOwnedKey'
    | 'mintKeys'
  >;
  connect: Pick<ConnectService, 'listUserStores'>;
  payments: Pick<PaymentsService, 'listOrdersOf'>;
  /** The customer's invoices and credit notes with their orders' statuses. */
  orderHistory: Pick<OrderHistory, 'invoicesOf'>;
  themeFileUpdates: Pick<ThemeFileUpdatesService, 'listRuns'>;
  credits: Pick<CreditsService, 'balance' | 'balancesOf' | 'history' | 'reportsOf'>;
  audit: Pick<AuditService, 'record'>;
  outbox: Pick<Outbox, 'enqueue' | 'flush'>;
}

function toStaffKey(row: StaffKeyRow): StaffCustomerKey {
  return {
    id: row.id,
    api_key: row.apiKey,
    tier: row.tier,
    linked_app_store: row.linkedAppStore,
    main_url: row.mainUrl,
    myshopify: row.myshopify,
    secondary_url: row.secondaryUrl,
    claimed_at: row.claimedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Issue 12 "Keys and customers" (ADR 027): staff search customers and act on their keys. This module owns no table:
 * it reads and writes through the owners' services, and every action is one transaction with its one audit row.
 */
export function createCustomersAdminService(deps: CustomersAdminDeps) {
  const { db, auth, keys, connect, payments, orderHistory, themeFileUpdates, credits, audit, outbox } = deps;

  async function requireCustomer(id: number) {
    const customer = await auth.findAccount(id);
    if (!customer) throw notFound(CUSTOMER_NOT_FOUND, 'customer_not_found');
    return customer;
  }

  return {
    /** GET /staff/customers: a page of customers (id order) matching the search, with their key count and balance. */
    async search(query: { q?: string; cursor?: string }) {
      const q = query.q?.trim() ?? '';
      const limit = STAFF_CUSTOMERS_PAGE_SIZE;
      const ids = q === '' ? [] : await keys.findOwnersMatching(q, MAX_MATCHING_OWNERS);
      const rows = await auth.searchUsers({
        afterId: query.cursor === undefined ? null : Number(query.cursor),
        emailPart: q === '' ? null : q.toLowerCase(),
        ids,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const pageIds = page.map((row) => row.id);
      const [keyCounts, balances] = await Promise.all([keys.countKeysByOwners(pageIds), credits.balancesOf(pageIds)]);
      const customers: StaffCustomerSummary[] = page.map((row) => ({
        id: row.id,
        email: row.email,
        name: row.name,
        role: row.role,
        created_at: row.createdAt.toISOString(),
        keys: keyCounts.get(row.id) ?? 0,
        credits_balance: balances.get(row.id) ?? 0,
      }));
      return { customers, next_cursor: rows.length > limit ? String(page.at(-1)!.id) : null };
    },

    /** GET /staff/customers/:id: everything the portal knows of one customer. */
    async get(id: number): Promise<StaffCustomer> {
      const customer = await requireCustomer(id);
      const [keyRows, stores, orders, invoiceList, runs, account, recent, reports] = await Promise.all([
        keys.listKeysForStaff(id),
        connect.listUserStores(id),
        payments.listOrdersOf(id),
        orderHistory.invoicesOf(id),
        themeFileUpdates.listRuns(id),
        credits.balance(id),
        credits.history(id),
        credits.reportsOf(id),
      ]);
      return {
        customer: {
          id: customer.id,
          email: customer.email,
          name: customer.name,
          role: customer.role,
          created_at: customer.createdAt.toISOString(),
        },
        keys: keyRows.map(toStaffKey),
        stores,
        orders,
        invoices: invoiceList,
        upgrade_runs: runs.runs,
        credits: { balance: account.balance, owed: account.owed, pending: account.pending, recent },
        reports,
      };
    },

    /** POST /staff/keys: unclaimed keys, with one audit row. */
    async mintUnclaimed(staffId: number, input: { tier: Tier; count: number; reason: string }): Promise<string[]> {
      return db.transaction(async (tx) => {
        const minted = await keys.mintKeys(input.tier, input.count, tx);
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'keys.minted',
          object: { type: 'license_keys', id: `${input.count}x${input.tier}` },
          reason: input.reason,
          data: { tier: input.tier, count: input.count, keys: minted },
        });
        return minted;
      });
    },

    /** POST /staff/customers/:id/keys: keys owned by the customer, each emailed after commit; one audit row. */
    async mintForCustomer(
      staffId: number,
      customerId: number,
      input: { tier: Tier; count: number; reason: string },
    ): Promise<StaffCustomerKey[]> {
      const customer = await requireCustomer(customerId);
      const minted = await db.transaction(async (tx) => {
        const ids: number[] = [];
        for (let i = 0; i < input.count; i++) {
          const key = await keys.mintOwnedKey(tx, customer.id, input.tier);
          ids.push(key.id);
          await outbox.enqueue(
            tx,
            mintedKeyEmail({ to: customer.email, name: customer.name, tier: input.tier, apiKey: key.key.api_key }),
          );
        }
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'keys.minted_for_customer',
          object: { type: 'user', id: customer.id },
          customerUserId: customer.id,
          reason: input.reason,
          data: { tier: input.tier, count: input.count, key_ids: ids },
        });
        return Promise.all(ids.map((keyId) => keys.requireOwnedKeyForStaff(customer.id, keyId, tx)));
      });
      void outbox.flush();
      return minted.map(toStaffKey);
    },

    /** POST /staff/customers/:id/keys/:keyId/release: the key leaves the account (store and token cleared). */
    async releaseKey(staffId: number, customerId: number, keyId: number, reason: string): Promise<void> {
      await db.transaction(async (tx) => {
        const released = await keys.releaseKeyById(customerId, keyId, tx);
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'key.released',
          object: { type: 'license_key', id: released.id },
          customerUserId: customerId,
          reason,
          data: { api_key: released.apiKey },
        });
      });
    },

    /** POST /staff/customers/:id/keys/:keyId/resend-email: the key's email again, to its owner. */
    async resendKeyEmail(staffId: number, customerId: number, keyId: number, reason: string) {
      const customer = await requireCustomer(customerId);
      await db.transaction(async (tx) => {
        const key = await keys.requireOwnedKeyForStaff(customer.id, keyId, tx);
        await outbox.enqueue(
          tx,
          keyReminderEmail({ to: customer.email, name: customer.name, tier: key.tier, apiKey: key.apiKey }),
        );
        await audit.record(tx, {
          actor: { type: 'staff', id: staffId },
          action: 'key.email_resent',
          object: { type: 'license_key', id: key.id },
          customerUserId: customer.id,
          reason,
          data: { to: customer.email },
        });
      });
      void outbox.flush();
      return { sent_to: customer.email };
    },
  };
}
export type CustomersAdminService = ReturnType<typeof createCustomersAdminService>;
