import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/invoices';
import { registerRoute } from '../../http/route';

/** The caller's invoices and credit notes, and their PDFs (the buyer, or staff). */
export async function invoicesRoutes(app: FastifyInstance) {
  const { invoices, orderHistory } = app.services;

  registerRoute(app, contracts.listInvoices, async ({ user }, _request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { invoices: await orderHistory.invoicesOf(user.id) };
  });

  // Settings → Invoices (issue 21): the caller's orders, each with its invoice and credit notes.
  registerRoute(app, contracts.listMyOrders, async ({ user }, _request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { orders: await orderHistory.ordersOf(user.id) };
  });

  registerRoute(app, contracts.getInvoicePdf, async ({ user, params }, _request, reply) => {
    const { pdf, filename } = await invoices.pdf(user, Number(params.id));
    reply
      .code(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store');
    return pdf;
  });
}
