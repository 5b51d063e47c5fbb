/**
 * Every path of the staff console (issue 12), in one place: pages link through these, never through string literals.
 * `pages.tsx` registers each page under its path (relative to `/staff`).
 */
export const staffPaths = {
  home: '/staff',
  auditLog: '/staff/audit-log',
  updates: '/staff/updates',
  customers: '/staff/customers',
  customer: (id: number | string) => `/staff/customers/${id}`,
  orders: '/staff/orders',
  upgradeTokens: '/staff/upgrade-tokens',
  catalogue: '/staff/catalogue',
  releases: '/staff/releases',
  reports: '/staff/reports',
  sightings: '/staff/sightings',
  vatRates: '/staff/vat-rates',
  jobs: '/staff/jobs',
} as const;

/** A console path as the route tree under `/staff/*` matches it: `/staff/audit-log` → `audit-log`. */
export const relativeToConsole = (path: string): string => path.replace(/^\/staff\/?/, '');
