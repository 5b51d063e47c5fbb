import type { StaffCustomer, StaffCustomerSummary } from '@keyport/shared/contracts/staff-customers';

/** Answers of the staff customer routes for the page tests. */
export const SUMMARY: StaffCustomerSummary = {
  id: 7,
  email: 'mia@example.com',
  name: 'Mia',
  role: null,
  created_at: '2026-05-01T10:00:00.000Z',
  keys: 2,
  credits_balance: 3,
};

export const CUSTOMER: StaffCustomer = {
  customer: { id: 7, email: 'mia@example.com', name: 'Mia', role: null, created_at: '2026-05-01T10:00:00.000Z' },
  keys: [
    {
      id: 41,
      api_key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      tier: 'PRO',
      linked_app_store: null,
      main_url: 'https://mia-shop.com',
      myshopify: 'mia-shop.myshopify.com',
      secondary_url: null,
      claimed_at: '2026-05-02T10:00:00.000Z',
      created_at: '2026-05-02T10:00:00.000Z',
    },
  ],
  stores: [{ id: 1, myshopify_domain: 'mia-shop.myshopify.com' }],
  orders: [
    {
      id: 12,
      kind: 'upgrade',
      status: 'completed',
      provider: 'stripe',
      provider_payment_id: 'pi_123',
      license_key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE',
      from_tier: 'REGULAR',
      to_tier: 'PRO',
      credits: null,
      total: 5950,
      currency: 'usd',
      created_at: '2026-05-03T10:00:00.000Z',
    },
  ],
  invoices: [
    {
      id: 3,
      number: '2026-000003',
      kind: 'invoice',
      issued_at: '2026-05-03T10:00:00.000Z',
      total: 5950,
      currency: 'usd',
      order_id: 12,
      status: 'completed',
      credited_invoice_number: null,
    },
  ],
  upgrade_runs: [],
  credits: {
    balance: 3,
    owed: 0,
    pending: 0,
    recent: [
      { id: 9, kind: 'grant', amount: 3, balance_after: 3, note: 'Goodwill', created_at: '2026-05-04T10:00:00.000Z' },
    ],
  },
  reports: [],
};
