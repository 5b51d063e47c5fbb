import PDFDocument from 'pdfkit';
import { countryName } from '@keyport/shared/domain/countries';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
import type { InvoiceBuyer, InvoiceSeller } from '../../db/schema';
import { formatEur, toEurCents } from './eur-line';
import type { InvoiceRow } from './invoices.repo';

/** The reverse-charge statement an EU B2B invoice must carry (Article 226(11a) of the VAT Directive). */
export const REVERSE_CHARGE_NOTE =
  'VAT to be accounted for by the recipient (reverse charge, Article 196 of Council Directive 2006/112/EC)';

const PROVIDER_LABEL: Record<string, string> = {
  stripe: 'Card (Stripe)',
  sandbox: 'Card (sandbox)',
  paypal: 'PayPal',
  paypal_sandbox: 'PayPal (sandbox)',
};

export function providerLabel(provider: string): string {
  return PROVIDER_LABEL[provider] ?? provider;
}

/**
 * The PDF of an invoice or a credit note, drawn only from the document's own row (its snapshots of seller, buyer,
 * line and amounts), never from the order, so it reads the same in ten years. `credited` is the invoice a credit
 * note cancels. PDF's standard fonts cover Windows-1252 (Latin-1, €, Š, Ž, Œ, …): other characters are written as
 * '?'. An EU buyer's document shows its VAT in EUR with the ECB rate, that rate's date and source (ADR 036).
 */
export function renderInvoicePdf(invoice: InvoiceRow, credited: InvoiceRow | null = null): Promise<Buffer> {
  const isCredit = invoice.kind === 'credit_note';
  const title = isCredit ? 'Credit note' : 'Invoice';
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${title} ${invoice.number}`, Author: invoice.seller.name, Subject: title },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const line = (text: string) => doc.text(latin1(text));
  const date = (value: Date) => value.toISOString().slice(0, 10);
  const money = (cents: number) => formatUsd(isCredit ? -cents : cents);

  doc.font('Helvetica-Bold').fontSize(20);
  line(title);
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  line(`${title} number: ${invoice.number}`);
  line(`Issue date: ${date(invoice.issuedAt)}`);
  if (isCredit) {
    line(`Credit note for invoice: ${credited?.number ?? '?'}`);
    line(`Refund date: ${date(invoice.paymentDate)}`);
  } else {
    line(`Date of supply and payment: ${date(invoice.paymentDate)}`);
  }
  line(`Order: ${invoice.orderId}`);

  const { seller, buyer } = invoice;
  doc.moveDown().font('Helvetica-Bold');
  line('Seller');
  doc.font('Helvetica');
  for (const text of sellerLines(seller)) line(text);

  doc.moveDown().font('Helvetica-Bold');
  line('Buyer');
  doc.font('Helvetica');
  for (const text of buyerLines(buyer)) line(text);

  doc.moveDown().font('Helvetica-Bold');
  line('Description');
  doc.font('Helvetica');
  line(`${invoice.lineDescription}: ${money(invoice.subtotalCents)}`);
  doc.moveDown();
  line(`Subtotal: ${money(invoice.subtotalCents)}`);
  if (invoice.reverseCharge) {
    line(`VAT: ${money(0)} (${REVERSE_CHARGE_LABEL})`);
    line(`${REVERSE_CHARGE_NOTE}.`);
    line(`Buyer VAT ID: ${invoice.buyerVatId ?? ''}`);
    if (invoice.vatConsultationNumber) line(`VIES consultation number: ${invoice.vatConsultationNumber}`);
  } else {
    line(`VAT (${formatVatRate(invoice.vatRateBp)}): ${money(invoice.vatCents)}`);
  }
  if (invoice.eurRate && invoice.vatEurCents !== null) {
    const euro = (cents: number) => formatEur(isCredit ? -cents : cents);
    if (invoice.reverseCharge) {
      line(`Net amount in EUR: ${euro(toEurCents(invoice.subtotalCents, invoice.eurRate))}`);
    } else {
      line(`VAT in EUR: ${euro(invoice.vatEurCents)}`);
    }
    line(
      `Exchange rate: 1 EUR = ${invoice.eurRate} ${invoice.currency.toUpperCase()} (${invoice.eurRateSource} of ${invoice.eurRateDate})`,
    );
  }
  doc.font('Helvetica-Bold');
  line(
    `${isCredit ? 'Total credited' : 'Total paid'}: ${money(invoice.totalCents)} (${invoice.currency.toUpperCase()})`,
  );
  doc.font('Helvetica').moveDown();
  const payment = invoice.providerPaymentId ? `, payment ${invoice.providerPaymentId}` : '';
  line(`${isCredit ? 'Refunded through' : 'Paid with'}: ${providerLabel(invoice.provider)}${payment}`);
  doc.end();
  return done;
}

/** The seller's block: name, address lines, country by name (unless the address already ends with it), VAT ID, email. */
export function sellerLines(seller: InvoiceSeller): string[] {
  const country = seller.country ? countryName(seller.country) : null;
  const last = seller.address.at(-1)?.trim().toLowerCase();
  return [
    seller.name,
    ...seller.address,
    ...(country && last !== country.toLowerCase() ? [country] : []),
    ...(seller.vatId ? [`VAT ID: ${seller.vatId}`] : []),
    ...(seller.email ? [seller.email] : []),
  ];
}

/**
 * The buyer's block: name, company, address lines ('postal code city', state), country by name, email, VAT ID. A
 * document issued before issue 19 ends its address with the country code: it is printed by name too.
 */
export function buyerLines(buyer: InvoiceBuyer): string[] {
  const address =
    buyer.countryName === undefined && buyer.address.at(-1) === buyer.country
      ? buyer.address.slice(0, -1)
      : buyer.address;
  return [
    buyer.name,
    ...(buyer.companyName ? [buyer.companyName] : []),
    ...address,
    buyer.countryName ?? countryName(buyer.country),
    buyer.email,
    ...(buyer.vatId ? [`VAT ID: ${buyer.vatId}`] : []),
  ];
}

/** Windows-1252's characters beyond Latin-1, which PDF's standard fonts also draw. */
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** Characters PDF's standard fonts can draw; anything else becomes '?'. */
function latin1(text: string): string {
  return [...text]
    .map((char) => (/[\u0020-\u007e\u00a0-\u00ff]/.test(char) || WIN_ANSI_EXTRA.includes(char) ? char : '?'))
    .join('');
}
