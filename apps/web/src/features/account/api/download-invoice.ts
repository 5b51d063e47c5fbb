import { getInvoicePdf } from '@keyport/shared/contracts/invoices';
import { callApiForResponse } from '../../../lib/api-client';
import { saveFileResponse } from '../../../lib/save-file-response';

/**
 * Downloads an invoice or credit note PDF (GET /invoices/:id/pdf). The route needs the session's Authorization
 * header, so it is fetched rather than linked, then saved under the server's file name.
 */
export async function downloadInvoice(invoiceId: number): Promise<void> {
  const response = await callApiForResponse(getInvoicePdf, {
    params: { id: String(invoiceId) },
    headers: { accept: 'application/pdf' },
  });
  await saveFileResponse(response, `invoice-${invoiceId}.pdf`);
}
