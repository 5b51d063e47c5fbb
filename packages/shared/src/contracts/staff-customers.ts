import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { CreditLedgerEntrySchema, StaffStoreReportSchema } from './credits';
import { defineContract } from './define';
import { InvoiceSummarySchema } from './invoices';
import { StaffReasonSchema } from './staff';
import { ThemeFileUpdateRunSchema } from './theme-file-updates';
import { idString } from './ids';

/**
 * Issue 12, "Keys and customers": staff search customers by email, license key or store domain, open a customer's
 * page, and act on their keys and credits (each action with a reason, one audit row). ADR 027.
 */

const idParam = idString('Invalid id');

/** A customer in the search results: who, and how much they hold. */
export const StaffCustomerSummarySchema = z.object({
  id: z.int(),
  email: z.string(),
  name: z.string(),
  /** null for customers; 'team' or 'staff'. */
  role: z.nullable(z.string()),
  created_at: z.string(),
  keys: z.int(),
  credits_balance: z.int(),
});
export type StaffCustomerSummary = z.infer<typeof StaffCustomerSummarySchema>;

export const STAFF_CUSTOMERS_PAGE_SIZE = 50;

/**
 * Customers, oldest account first, cursor-paged on the user id. `q` matches part of an email, a whole license key
 * (any case), or a store domain (the start of a key's myshopify, main, secondary or app store host).
 */
export const listStaffCustomers = defineContract({
  operationId: 'listStaffCustomers',
  method: 'GET',
  path: '/staff/customers',
  summary: 'Search customers by email, license key or store domain (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    q: z.optional(z.string().check(z.trim(), z.maxLength(254, 'The search is at most 254 characters'))),
    cursor: z.optional(idString('Invalid cursor')),
  }),
  response: z.object({ customers: z.array(StaffCustomerSummarySchema), next_cursor: z.nullable(z.string()) }),
});

/** A key as staff see it: its store connection and when it was claimed. */
export const StaffCustomerKeySchema = z.object({
  id: z.int(),
  api_key: z.string(),
  tier: z.enum(TIERS),
  linked_app_store: z.nullable(z.string()),
  main_url: z.nullable(z.string()),
  myshopify: z.nullable(z.string()),
  secondary_url: z.nullable(z.string()),
  claimed_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type StaffCustomerKey = z.infer<typeof StaffCustomerKeySchema>;

/** An upgrade or credit-pack order (card or PayPal) with its provider reference. */
export const StaffCustomerOrderSchema = z.object({
  id: z.int(),
  kind: z.enum(['upgrade', 'credit_pack']),
  status: z.string(),
  provider: z.string(),
  provider_payment_id: z.nullable(z.string()),
  license_key: z.nullable(z.string()),
  from_tier: z.nullable(z.enum(TIERS)),
  to_tier: z.nullable(z.enum(TIERS)),
  credits: z.nullable(z.int()),
  /** Cents. */
  total: z.int(),
  currency: z.string(),
  created_at: z.string(),
});
export type StaffCustomerOrder = z.infer<typeof StaffCustomerOrderSchema>;

export const StaffCustomerSchema = z.object({
  customer: z.object({
    id: z.int(),
    email: z.string(),
    name: z.string(),
    role: z.nullable(z.string()),
    created_at: z.string(),
  }),
  keys: z.array(StaffCustomerKeySchema),
  stores: z.array(z.object({ id: z.int(), myshopify_domain: z.string() })),
  orders: z.array(StaffCustomerOrderSchema),
  invoices: z.array(InvoiceSummarySchema),
  upgrade_runs: z.array(ThemeFileUpdateRunSchema),
  /** `pending`: report credits waiting for staff review, not in the balance (ADR 037). */
  credits: z.object({
    balance: z.int(),
    owed: z.int(),
    pending: z.int(),
    recent: z.array(CreditLedgerEntrySchema),
  }),
  reports: z.array(StaffStoreReportSchema),
});
export type StaffCustomer = z.infer<typeof StaffCustomerSchema>;

export const getStaffCustomer = defineContract({
  operationId: 'getStaffCustomer',
  method: 'GET',
  path: '/staff/customers/:id',
  summary: "A customer's keys, stores, orders, invoices, upgrades, credits and reports (staff only)",
  tags: ['staff'],
  access: 'staff',
  params: z.object({ id: idParam }),
  response: StaffCustomerSchema,
});

/** Mints keys owned by the customer from the start; each is emailed to them through the outbox. */
export const mintCustomerKeys = defineContract({
  operationId: 'mintCustomerKeys',
  method: 'POST',
  path: '/staff/customers/:id/keys',
  summary: 'Mint license keys owned by a customer (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  params: z.object({ id: idParam }),
  body: z.object({
    tier: z.enum(TIERS),
    count: z.int().check(z.minimum(1, 'count must be at least 1'), z.maximum(20, 'count must be at most 20')),
    reason: StaffReasonSchema,
  }),
  response: z.object({ keys: z.array(StaffCustomerKeySchema) }),
});

const keyParams = z.object({ id: idParam, keyId: idParam });

/** Releases a key from the customer's account: its store connection and token are cleared; the key stays, unclaimed. */
export const releaseCustomerKey = defineContract({
  operationId: 'releaseCustomerKey',
  method: 'POST',
  path: '/staff/customers/:id/keys/:keyId/release',
  summary: "Release a key from a customer's account (staff only)",
  tags: ['staff'],
  access: 'staff',
  params: keyParams,
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ released: z.literal(true) }),
});

/** Emails the customer their key again (through the outbox). */
export const resendCustomerKeyEmail = defineContract({
  operationId: 'resendCustomerKeyEmail',
  method: 'POST',
  path: '/staff/customers/:id/keys/:keyId/resend-email',
  summary: 'Re-send a license key email to its owner (staff only)',
  tags: ['staff'],
  access: 'staff',
  status: 202,
  params: keyParams,
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ sent_to: z.string() }),
});
