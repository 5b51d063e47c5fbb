import type { FastifyInstance } from 'fastify';
import * as contracts from '@keyport/shared/contracts/invoices';
import { registerRoute } from '../../http/route';

/** The caller's invoices and credit notes, and their PDFs (the buyer, or staff). */
export async function invoicesRoutes(app: FastifyInstance) {
  const { invoices } = app.services;

  registerRoute(app, contracts.listInvoices, async ({ user }, _request, reply) => {
    reply.header('cache-control', 'private, no-store');
    return { invoices: await invoices.list(user.id) };
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
