import type { BillingInput, OrderQuote } from '@keyport/shared/contracts/payments';
import { BILLING_MESSAGES } from '@keyport/shared/domain/billing';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import type { Tier } from '@keyport/shared/domain/tiers';
import { findUpgradePath, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import type { VatCalculation } from '@keyport/shared/domain/vat';
import type { BillingSnapshot } from '../../db/schema';
import { badRequest } from '../../http/errors';
import type { BillingService, VerifiedVatId } from '../billing/billing.service';
import type { Buyer, CreditPackRow, CreditPacksService } from '../credits/credit-packs.service';
import type { KeysService } from '../keys/keys.service';
import type { UpgradePrice, UpgradesService } from '../upgrades/upgrades.service';
import { billingFromMetadata, billingSnapshot, vatEvidence, type Payer, type PaymentMetadata } from './order-billing';
import type * as repo from './payments.repo';

export const PRICE_MISMATCH = 'This price is not the price of this upgrade. Reload the page and try again.';
export const PACK_PRICE_MISMATCH = 'This price is not the price of this credit pack. Reload the page and try again.';
export const PACK_NO_PRICE_ID = 'This credit pack has no price configured yet.';

/**
 * §7 POST /stripe/payment-intents: `billing` is the form's (name, address for the invoice); a request exactly as §7
 * lists it has none, and its billing country and business fields come from `metadata` (issue 19).
 */
export interface StartPaymentInput {
  price_id: string;
  theme_type: Tier;
  key: string;
  billing?: BillingInput;
  metadata?: PaymentMetadata;
}

/** A credit pack to pay for (POST /credits/checkout/…): the pack, its price id as the browser saw it, billing. */
export interface StartPackPaymentInput {
  pack_id: number;
  price_id: string;
  billing: BillingInput;
}

/** What an order is for, priced: an upgrade of a key or a credit pack, with billing and VAT. */
export type Quote = (
  | {
      kind: 'upgrade';
      key: Awaited<ReturnType<KeysService['requireOwnedKey']>>;
      path: UpgradePath;
      price: UpgradePrice;
    }
  | { kind: 'credit_pack'; pack: CreditPackRow }
) & {
  priceId: string;
  snapshot: BillingSnapshot;
  verified: VerifiedVatId | null;
  vat: VatCalculation;
};

export interface OrderQuotesDeps {
  keys: Pick<KeysService, 'requireOwnedKey'>;
  upgrades: Pick<UpgradesService, 'prices'>;
  creditPacks: Pick<CreditPacksService, 'packForCheckout'>;
  billing: Pick<BillingService, 'verifiedVatIdFor' | 'isCountry' | 'vatRates'>;
  /** The card provider's name: an order is the card path's unless the wallet says it is its own. */
  providerName: string;
}

/**
 * Quote (issue 21: payments.service split into quote, start, settle and refund): what an order costs, from the
 * catalogue or the credit pack and the billing country (and a VIES-valid VAT ID), never from the browser; and the
 * order row it becomes. Network calls (VIES) happen here, before any transaction.
 */
export function createOrderQuotes(deps: OrderQuotesDeps) {
  const { keys, upgrades, billing } = deps;

  /**
   * An upgrade's quote: the caller's key, the path to `theme_type`, its catalogue price (the browser's must match).
   * Without a billing object (§7's own request) the payer's name and email and the metadata's country and business
   * fields bill it.
   */
  async function quoteFor(payer: Payer, input: StartPaymentInput): Promise<Quote> {
    const userId = payer.id;
    const key = await keys.requireOwnedKey(userId, input.key);
    const path = findUpgradePath(key.tier, input.theme_type);
    if (!path) {
      throw badRequest(`A ${key.tier} license cannot be upgraded to ${input.theme_type}.`, 'invalid_upgrade_path');
    }
    const price = (await upgrades.prices()).find((entry) => entry.path === path);
    if (!price?.providerPriceId) throw badRequest(CARD_PAYMENT_MESSAGES.noPriceId(input.theme_type), 'no_price_id');
    if (input.price_id !== price.providerPriceId) throw badRequest(PRICE_MISMATCH, 'price_mismatch');
    return {
      kind: 'upgrade',
      key,
      path,
      price,
      priceId: price.providerPriceId,
      ...(await taxed(price.amountCents, input.billing ?? billingFromMetadata(payer, input.metadata))),
    };
  }

  /** A credit pack's quote: team members only, the pack on sale, its price (the browser's must match). */
  async function quotePackFor(buyer: Buyer, input: StartPackPaymentInput): Promise<Quote> {
    const pack = await deps.creditPacks.packForCheckout(buyer, input.pack_id);
    if (!pack.providerPriceId) throw badRequest(PACK_NO_PRICE_ID, 'no_price_id');
    if (input.price_id !== pack.providerPriceId) throw badRequest(PACK_PRICE_MISMATCH, 'price_mismatch');
    return {
      kind: 'credit_pack',
      pack,
      priceId: pack.providerPriceId,
      ...(await taxed(pack.amountCents, input.billing)),
    };
  }

  /** The billing snapshot and the VAT on `amountCents` (VIES for a business VAT ID): one rule for every kind. */
  async function taxed(amountCents: number, input: BillingInput) {
    const snapshot = billingSnapshot(input);
    if (!billing.isCountry(snapshot.address.country)) throw badRequest(BILLING_MESSAGES.country, 'invalid_country');
    if (snapshot.is_business && !snapshot.company_name) {
      throw badRequest(BILLING_MESSAGES.companyName, 'company_name_required');
    }
    // A network call (VIES, cached for a day), before any transaction.
    const verified = snapshot.is_business
      ? await billing.verifiedVatIdFor(input.vat_id, snapshot.address.country)
      : null;
    // The rate in force today, which the order keeps (ADR 036).
    const vat = await billing.vatRates.vatFor({
      amountCents,
      country: snapshot.address.country,
      isBusiness: snapshot.is_business,
      vatId: verified?.vatNumber ?? null,
    });
    return { snapshot, verified, vat };
  }

  function orderValues(userId: number, quote: Quote, providerName: string = deps.providerName): repo.NewOrder {
    const { snapshot, verified, vat } = quote;
    const what: Partial<repo.NewOrder> =
      quote.kind === 'upgrade'
        ? {
            kind: 'upgrade',
            licenseKeyId: quote.key.id,
            licenseKey: quote.key.apiKey,
            path: quote.path,
            fromTier: quote.price.from,
            toTier: quote.price.to,
          }
        : { kind: 'credit_pack', creditPackId: quote.pack.id, credits: quote.pack.credits };
    return {
      userId,
      ...what,
      priceId: quote.priceId,
      currency: 'usd',
      baseAmountCents: vat.baseCents,
      vatAmountCents: vat.vatCents,
      totalAmountCents: vat.totalCents,
      vatRateBp: vat.rateBp,
      reverseCharge: vat.reverseCharge,
      billing: snapshot,
      ...vatEvidence(vat.reverseCharge ? verified : null),
      provider: providerName,
    };
  }

  return { quoteFor, quotePackFor, orderValues };
}
export type OrderQuotes = ReturnType<typeof createOrderQuotes>;

/** An order as the browser sees its quote (an order of the payment paths: never a legacy one). */
export function toQuote(order: repo.OrderRow): OrderQuote {
  return {
    id: order.id,
    kind: order.kind === 'credit_pack' ? 'credit_pack' : 'upgrade',
    status: order.status,
    from: order.fromTier,
    to: order.toTier,
    credits: order.credits,
    currency: 'usd',
    base_amount: order.baseAmountCents,
    vat_amount: order.vatAmountCents,
    total_amount: order.totalAmountCents,
    vat_rate: order.vatRateBp / 100,
    reverse_charge: order.reverseCharge,
    last_payment_error: order.lastPaymentError,
  };
}
