/** Every route path of the web app, in one place (features link through these, never through string literals). */
export const paths = {
  home: '/',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  customer: '/customer',
  myKeys: '/customer/my-keys',
  key: (id: number | string) => `/customer/my-keys/${id}`,
  onboarding: '/customer/onboarding',
  marketplace: '/customer/marketplace',
  aiStore: '/customer/ai-store',
  /** §2 the same-edition update, with optional `target` and `source` license keys. */
  updateFile: '/customer/update_file',
  /** §2 the edition upgrades: lite-to-reg, reg-lite-to-pro, lite-to-pro. */
  upgradeFile: (slug: string) => `/customer/upgrade_file/${slug}`,
  /** Issue 12: the staff console (its pages' paths live in features/staff/staff-paths.ts). */
  staff: '/staff',
} as const;

/** `/login?next=…`, optionally saying why (an expired session). */
export function loginPath(next?: string, reason?: 'expired'): string {
  const params = new URLSearchParams();
  if (reason) params.set('reason', reason);
  if (next) params.set('next', next);
  const query = params.toString();
  return query ? `${paths.login}?${query}` : paths.login;
}

/** `/customer/update_file?target=…&source=…` (§2). */
export function updateFilePath(target?: string, source?: string): string {
  const params = new URLSearchParams();
  if (target) params.set('target', target);
  if (source) params.set('source', source);
  const query = params.toString();
  return query ? `${paths.updateFile}?${query}` : paths.updateFile;
}
