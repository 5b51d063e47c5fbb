import { keyportCreditsLabel } from '@keyport/shared/domain/credit-packs';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
import type { EmailMessage } from '../../integrations/email/port';
import { kinded, type CreditPackOrderRow, type OrderRow, type UpgradeOrderRow } from './payments.repo';

/** The order's amounts as lines of text: subtotal, VAT (or reverse charge), total. */
export function amountLines(order: OrderRow): string[] {
  const vat = order.reverseCharge
    ? `VAT: ${formatUsd(0)} (${REVERSE_CHARGE_LABEL}: VAT to be accounted for by the recipient${order.vatId ? `, VAT ID ${order.vatId}` : ''})`
    : `VAT (${formatVatRate(order.vatRateBp)}): ${formatUsd(order.vatAmountCents)}`;
  return [`Subtotal: ${formatUsd(order.baseAmountCents)}`, vat, `Total: ${formatUsd(order.totalAmountCents)}`];
}

const label = (order: UpgradeOrderRow) => upgradePathLabel(order.path as UpgradePath);

/** What the order bought, for people: 'LITE → REGULAR upgrade' or '12 Keyport credits'. */
function purchaseLabel(order: OrderRow): string {
  const paid = kinded(order);
  return paid.kind === 'upgrade' ? `${label(paid)} upgrade` : keyportCreditsLabel(paid.credits);
}

/** Where the invoices are: Settings → Invoices on the dashboard (the query parameter opens the tab). */
export function invoicesTabUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/customer/my-keys?settings=invoices`;
}

/** Sent through the outbox when a paid upgrade was applied. */
export function receiptEmail(order: UpgradeOrderRow, publicUrl: string): EmailMessage {
  return {
    to: order.billing.email,
    subject: `Your Keyport receipt: ${label(order)} upgrade`,
    text: [
      `Hello ${order.billing.name},`,
      '',
      `Thank you for your purchase. Your license ${order.licenseKey} is now ${order.toTier}.`,
      '',
      `Order: ${order.id}`,
      `Upgrade: ${label(order)}`,
      ...amountLines(order),
      `Paid: ${(order.paymentCompletedAt ?? new Date()).toISOString().slice(0, 10)}`,
      '',
      'The theme you have installed keeps working. Download the theme or generate a new token from your license card to get',
      `the ${order.toTier} edition.`,
      '',
      `Your invoice (PDF) is in Settings, Invoices: ${invoicesTabUrl(publicUrl)}`,
    ].join('\n'),
  };
}

/** Sent through the outbox when a paid credit pack was added to the buyer's credits. */
export function creditsReceiptEmail(order: CreditPackOrderRow, publicUrl: string): EmailMessage {
  return {
    to: order.billing.email,
    subject: `Your Keyport receipt: ${purchaseLabel(order)}`,
    text: [
      `Hello ${order.billing.name},`,
      '',
      `Thank you for your purchase. ${purchaseLabel(order)} were added to your account.`,
      '',
      `Order: ${order.id}`,
      `Credits: ${order.credits}`,
      ...amountLines(order),
      `Paid: ${(order.paymentCompletedAt ?? new Date()).toISOString().slice(0, 10)}`,
      '',
      'Use them in Buy License with Credits on your dashboard.',
      '',
      `Your invoice (PDF) is in Settings, Invoices: ${invoicesTabUrl(publicUrl)}`,
    ].join('\n'),
  };
}

/** Sent when a payment arrived but the upgrade could not be applied (the key changed meanwhile): it is refunded. */
export function upgradeNotAppliedEmail(order: UpgradeOrderRow): EmailMessage {
  return {
    to: order.billing.email,
    subject: 'Your Keyport upgrade could not be applied',
    text: [
      `Hello ${order.billing.name},`,
      '',
      `We received your payment of ${formatUsd(order.totalAmountCents)} for order ${order.id} (${label(order)}), but the`,
      `license ${order.licenseKey} was no longer a ${order.fromTier} license of your account when it arrived, so nothing`,
      'was changed. We will refund the payment; you do not need to do anything.',
    ].join('\n'),
  };
}

/** Sent when an order was refunded (a credit pack's credits were taken back with it). */
export function refundEmail(order: OrderRow): EmailMessage {
  const paid = kinded(order);
  return {
    to: order.billing.email,
    subject: `Your Keyport refund for order ${order.id}`,
    text: [
      `Hello ${order.billing.name},`,
      '',
      `Order ${order.id} (${paid.kind === 'upgrade' ? label(paid) : purchaseLabel(paid)}, ${formatUsd(order.totalAmountCents)}) was refunded.`,
      ...(paid.kind === 'credit_pack'
        ? [
            'The credits it added were taken back; any you had already spent are owed and repaid by the next credits you get.',
          ]
        : []),
    ].join('\n'),
  };
}
