import PDFDocument from 'pdfkit';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
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
 * note cancels. PDF's standard fonts cover Latin-1: other characters are written as '?'.
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
  line(seller.name);
  for (const text of seller.address) line(text);
  if (seller.vatId) line(`VAT ID: ${seller.vatId}`);
  if (seller.email) line(seller.email);

  doc.moveDown().font('Helvetica-Bold');
  line('Buyer');
  doc.font('Helvetica');
  if (buyer.companyName) line(buyer.companyName);
  line(buyer.name);
  for (const text of buyer.address) line(text);
  line(buyer.email);
  if (buyer.vatId) line(`VAT ID: ${buyer.vatId}`);

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

/** Characters PDF's standard fonts can draw; anything else becomes '?'. */
function latin1(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}
