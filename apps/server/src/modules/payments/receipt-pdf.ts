import PDFDocument from 'pdfkit';
import { formatUsd, formatVatRate } from '@keyport/shared/domain/money';
import { upgradePathLabel, type UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { REVERSE_CHARGE_LABEL } from '@keyport/shared/domain/vat';
import type { OrderRow } from './payments.repo';

export interface Seller {
  name: string;
  vatId: string | null;
}

/**
 * The PDF receipt of a paid upgrade: seller, buyer (with company and VAT ID), the line, subtotal, VAT with its rate or
 * the reverse-charge note, total and the payment date. PDF's standard fonts cover Latin-1: other characters are
 * written as '?' (the receipt email carries the exact text).
 */
export function renderReceiptPdf(order: OrderRow, seller: Seller): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `Receipt ${order.id}`, Author: seller.name, Subject: 'Upgrade receipt' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const line = (text: string) => doc.text(latin1(text));
  doc.font('Helvetica-Bold').fontSize(20);
  line('Receipt');
  doc.font('Helvetica').fontSize(10).moveDown(0.5);
  line(`Receipt number: ${order.id}`);
  line(`Date paid: ${(order.paymentCompletedAt ?? order.createdAt).toISOString().slice(0, 10)}`);
  if (order.status === 'refunded') line(`Refunded: ${(order.refundedAt ?? new Date()).toISOString().slice(0, 10)}`);

  doc.moveDown().font('Helvetica-Bold');
  line('From');
  doc.font('Helvetica');
  line(seller.name);
  if (seller.vatId) line(`VAT ID: ${seller.vatId}`);

  doc.moveDown().font('Helvetica-Bold');
  line('Billed to');
  doc.font('Helvetica');
  const { billing } = order;
  if (billing.company_name) line(billing.company_name);
  line(billing.name);
  line(billing.address.line1);
  if (billing.address.line2) line(billing.address.line2);
  line([billing.address.postal_code, billing.address.city, billing.address.state].filter(Boolean).join(' '));
  line(billing.address.country);
  line(billing.email);
  if (order.vatId) line(`VAT ID: ${order.vatId}`);

  doc.moveDown().font('Helvetica-Bold');
  line(`License upgrade ${upgradePathLabel(order.path as UpgradePath)}`);
  doc.font('Helvetica');
  line(`License key: ${order.licenseKey}`);
  doc.moveDown();
  line(`Subtotal: ${formatUsd(order.baseAmountCents)}`);
  if (order.reverseCharge) {
    line(`VAT: ${formatUsd(0)} (${REVERSE_CHARGE_LABEL})`);
    line('VAT to be accounted for by the recipient (reverse charge, Article 196 of Council Directive 2006/112/EC).');
  } else {
    line(`VAT (${formatVatRate(order.vatRateBp)}): ${formatUsd(order.vatAmountCents)}`);
  }
  doc.font('Helvetica-Bold');
  line(`Total paid: ${formatUsd(order.totalAmountCents)} (${order.currency.toUpperCase()})`);
  doc.end();
  return done;
}

/** Characters PDF's standard fonts can draw; anything else becomes '?'. */
function latin1(text: string): string {
  return text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, '?');
}
