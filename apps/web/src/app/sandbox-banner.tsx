import { usePublicConfig } from '../lib/public-config';

/** The banner's words (issue 19). */
export const SANDBOX_BANNER_TEXT = 'Sandbox — no real money';

/**
 * Issue 19: while card payments or PayPal run on sandboxes (development, or a demo deployment with
 * SANDBOX_INTEGRATIONS=true), every page says so: customer app, sign-in pages and staff console alike, as the server's
 * public config tells. A small label fixed to the bottom-left corner: it appears once the config arrives without
 * moving anything on the page, and clicks pass through it. A spacer as tall as the label ends the page, so its last
 * lines can always be scrolled clear of it (added at the end, it moves nothing either).
 */
export function SandboxBanner() {
  const config = usePublicConfig();
  if (!config.data?.sandbox) return null;
  return (
    <>
      <div aria-hidden="true" className="h-12 print:hidden" />
      <aside
        aria-label="Sandbox"
        data-testid="sandbox-banner"
        className="pointer-events-none fixed bottom-3 left-3 z-40 rounded-full border border-amber-300 bg-amber-50/95 px-3 py-1 text-xs font-medium text-amber-900 shadow-sm print:hidden"
      >
        {SANDBOX_BANNER_TEXT}
      </aside>
    </>
  );
}
