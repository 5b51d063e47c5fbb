import { z } from 'zod/mini';
import { TIERS } from '../domain/tiers';
import { defineContract } from './define';
import { KeySchema } from './keys';
import { StaffCursorSchema, StaffPageLimitSchema, StaffReasonSchema, StaffSortOrderSchema } from './staff';
import { idString } from './ids';

/** LITE_TO_REGULAR, REGULAR_TO_PRO, LITE_TO_PRO (packages/shared/src/domain/upgrade-paths.ts). */
export const UpgradePathSchema = z.enum(['LITE_TO_REGULAR', 'REGULAR_TO_PRO', 'LITE_TO_PRO']);

const licenseKey = z.string().check(z.trim(), z.minLength(1, 'key is required'), z.maxLength(100));

/** §3 "Upgrade option" (with the dashboard's fields): price formatted ('$120.00') and in cents. */
export const UpgradeOptionSchema = z.object({
  path: UpgradePathSchema,
  from: z.enum(TIERS),
  to: z.enum(TIERS),
  price: z.string(),
  price_cents: z.int(),
  /** null: the option has no provider price id and cannot be bought by card. */
  priceId: z.nullable(z.string()),
  description: z.string(),
  upgrade_path: z.enum(['lite-to-reg', 'reg-lite-to-pro']),
  recommendedUpgrade: z.boolean(),
});
export type UpgradeOption = z.infer<typeof UpgradeOptionSchema>;

export const getUpgradeOptions = defineContract({
  operationId: 'getUpgradeOptions',
  method: 'POST',
  path: '/upgrades/options',
  summary: "The upgrades a key of the caller's can take, with prices (none for PRO)",
  tags: ['upgrades'],
  access: 'user',
  body: z.object({ key: licenseKey }),
  response: z.object({ key: KeySchema, options: z.array(UpgradeOptionSchema) }),
});

const redeemBody = z.object({
  upgradeKey: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Please enter your upgrade token'),
      z.maxLength(100, 'Failed to upgrade with token'),
    ),
  licenseKey,
});
const redeemResponse = z.object({
  success: z.literal(true),
  error: z.null(),
  message: z.string(),
  key: KeySchema,
  /** The unique id of the server's Completed Upgrade Token Redemption event (the browser's copy sends the same). */
  analytics_event_id: z.optional(z.string()),
});

function redeemContract<const Id extends string, const Path extends string>(operationId: Id, path: Path, what: string) {
  return defineContract({
    operationId,
    method: 'POST',
    path,
    summary: `Redeem a single-use upgrade token: ${what}`,
    tags: ['upgrades'],
    access: 'user',
    body: redeemBody,
    response: redeemResponse,
  });
}

/** §7 /keys/upgrade/regular: LITE to REGULAR. */
export const redeemTokenToRegular = redeemContract('redeemTokenToRegular', '/keys/upgrade/regular', 'LITE to REGULAR');
/** §7 /keys/upgrade/pro: REGULAR to PRO. */
export const redeemTokenToPro = redeemContract('redeemTokenToPro', '/keys/upgrade/pro', 'REGULAR to PRO');
/** §7 /keys/upgrade/l2p: LITE to PRO. */
export const redeemTokenLiteToPro = redeemContract('redeemTokenLiteToPro', '/keys/upgrade/l2p', 'LITE to PRO');

/**
 * §3 "Purchased upgrade record". Amounts are in cents. The invoice fields (subtotal, VAT, receipt) are Keyport's own
 * additions for the invoices tab.
 */
export const PurchasedUpgradeSchema = z.object({
  id: z.int(),
  license_key: z.string(),
  upgrade_from: z.enum(TIERS),
  upgrade_to: z.enum(TIERS),
  status: z.enum(['completed', 'refunded']),
  processed: z.boolean(),
  source: z.enum(['card', 'paypal', 'token']),
  amount_paid: z.int(),
  subtotal: z.int(),
  vat_amount: z.int(),
  vat_rate: z.number(),
  reverse_charge: z.boolean(),
  currency: z.string(),
  created_at: z.string(),
  payment_completed_at: z.nullable(z.string()),
  processing_error: z.nullable(z.string()),
  upgrade_processed_at: z.nullable(z.string()),
  /** The invoice PDF of a paid upgrade, by its order (a path of this server), null for tokens. */
  invoice_url: z.nullable(z.string()),
});
export type PurchasedUpgrade = z.infer<typeof PurchasedUpgradeSchema>;

/**
 * §7 GET /keys/check_purchased_upgrades: the caller's upgrades by source. `regular_upgrade_tokens` (REGULAR to PRO
 * tokens) is Keyport's addition: the spec lists token sources for LITE upgrades only.
 */
export const checkPurchasedUpgrades = defineContract({
  operationId: 'checkPurchasedUpgrades',
  method: 'GET',
  path: '/keys/check_purchased_upgrades',
  summary: "The caller's paid and redeemed upgrades",
  tags: ['upgrades'],
  access: 'user',
  response: z.object({
    stripe_upgrades: z.array(PurchasedUpgradeSchema),
    l2p_upgrade_tokens: z.array(PurchasedUpgradeSchema),
    lite_upgrade_tokens: z.array(PurchasedUpgradeSchema),
    regular_upgrade_tokens: z.array(PurchasedUpgradeSchema),
  }),
});

export const UpgradePriceSchema = z.object({
  path: UpgradePathSchema,
  from: z.enum(TIERS),
  to: z.enum(TIERS),
  amount_cents: z.int(),
  currency: z.literal('usd'),
  price_id: z.nullable(z.string()),
});
export type UpgradePrice = z.infer<typeof UpgradePriceSchema>;

export const getUpgradePrices = defineContract({
  operationId: 'getUpgradePrices',
  method: 'GET',
  path: '/staff/upgrade-prices',
  summary: 'The upgrade price catalogue (staff only)',
  tags: ['staff'],
  access: 'staff',
  response: z.object({ prices: z.array(UpgradePriceSchema) }),
});

export const saveUpgradePrices = defineContract({
  operationId: 'saveUpgradePrices',
  method: 'PUT',
  path: '/staff/upgrade-prices',
  summary: 'Change upgrade prices and provider price ids (staff only); paths left out keep theirs',
  tags: ['staff'],
  access: 'staff',
  body: z.object({
    prices: z
      .array(
        z.object({
          path: UpgradePathSchema,
          amount_cents: z
            .int()
            .check(
              z.minimum(100, 'amount_cents must be at least 100'),
              z.maximum(1_000_000, 'amount_cents is too large'),
            ),
          price_id: z.nullable(
            z.string().check(z.trim(), z.minLength(1, 'price_id must not be empty (use null)'), z.maxLength(200)),
          ),
        }),
      )
      .check(z.minLength(1, 'prices must not be empty'), z.maxLength(3, 'one entry per path')),
    reason: StaffReasonSchema,
  }),
  response: z.object({ prices: z.array(UpgradePriceSchema) }),
});

export const mintUpgradeTokens = defineContract({
  operationId: 'mintUpgradeTokens',
  method: 'POST',
  path: '/staff/upgrade-tokens',
  summary: 'Mint single-use upgrade tokens for a path (staff only; shown once, only a hash is kept)',
  tags: ['staff'],
  access: 'staff',
  status: 201,
  body: z.object({
    path: UpgradePathSchema,
    count: z.int().check(z.minimum(1, 'count must be at least 1'), z.maximum(500, 'count must be at most 500')),
    reason: StaffReasonSchema,
  }),
  response: z.object({ path: UpgradePathSchema, tokens: z.array(z.string()) }),
});

export const UpgradeTokenStatusSchema = z.enum(['unused', 'used', 'revoked']);
export type UpgradeTokenStatus = z.infer<typeof UpgradeTokenStatusSchema>;

/** An upgrade token as staff see it (issue 12): never the token itself, only a hash of it is kept. */
export const StaffUpgradeTokenSchema = z.object({
  id: z.int(),
  path: UpgradePathSchema,
  /** The token's last 5 characters, so staff can tell tokens apart (the token itself is never stored); null for tokens minted before hints were kept. */
  hint: z.nullable(z.string()),
  status: UpgradeTokenStatusSchema,
  created_at: z.string(),
  created_by_email: z.nullable(z.string()),
  used_at: z.nullable(z.string()),
  used_by_email: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
});
export type StaffUpgradeToken = z.infer<typeof StaffUpgradeTokenSchema>;

/** Issue 12: upgrade tokens, newest first, cursor-paged (the cursor is the last id seen). */
export const staffListUpgradeTokens = defineContract({
  operationId: 'staffListUpgradeTokens',
  method: 'GET',
  path: '/staff/upgrade-tokens',
  summary: 'Upgrade tokens with who used them, newest first (staff only)',
  tags: ['staff'],
  access: 'staff',
  query: z.object({
    status: z.optional(UpgradeTokenStatusSchema),
    path: z.optional(UpgradePathSchema),
    order: StaffSortOrderSchema,
    cursor: StaffCursorSchema,
    limit: StaffPageLimitSchema,
  }),
  response: z.object({ tokens: z.array(StaffUpgradeTokenSchema), next_cursor: z.nullable(z.string()) }),
});

/** Issue 12: revokes an unused token (409 when it was used or revoked already); a revoked token never redeems. */
export const staffRevokeUpgradeToken = defineContract({
  operationId: 'staffRevokeUpgradeToken',
  method: 'POST',
  path: '/staff/upgrade-tokens/:id/revoke',
  summary: 'Revoke an unused upgrade token (staff only)',
  tags: ['staff'],
  access: 'staff',
  params: z.object({ id: idString('Invalid id') }),
  body: z.object({ reason: StaffReasonSchema }),
  response: z.object({ token: StaffUpgradeTokenSchema }),
});
