import { Link2, Settings2 } from 'lucide-react';
import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Key } from '@keyport/shared/contracts/keys';
import { isStoreConnected, type StoreCard } from '@keyport/shared/domain/store-card';
import { Button } from '../components/ui/button';
import { keyTokenQueryOptions } from '../features/connect/api/get-key-token';
import { DownloadThemeButton } from '../features/downloads/components/download-theme-button';
import { usePublicConfig } from '../lib/public-config';
import { useUrlDialog } from '../lib/url-dialog';

// The connect dialogs load when first opened; the dashboard's initial bundle stays within budget.
const ConnectWizard = lazy(() =>
  import('../features/connect/components/connect-wizard').then((m) => ({ default: m.ConnectWizard })),
);
const ConnectionPanel = lazy(() =>
  import('../features/connect/components/connection-panel').then((m) => ({ default: m.ConnectionPanel })),
);

/**
 * The card's connect, edit-connection and download actions: composes the connect and downloads features. Download
 * downloads; a key with no token yet opens the panel, which says so once and has the one way on (Save Domains &
 * Generate Token). The wizard and the panel live in the URL (`?dialog=connect|connection&key=<id>`, ADR 042): Back
 * closes them and stays on the page.
 */
export function KeyCardActions({ card, licenseKey }: { card: StoreCard; licenseKey: Key }) {
  const config = usePublicConfig();
  const queryClient = useQueryClient();
  const dialog = useUrlDialog();
  const open = dialog.isOpen('connect', card.id) ? 'wizard' : dialog.isOpen('connection', card.id) ? 'panel' : null;
  const setOpen = (next: 'wizard' | 'panel' | null) => {
    if (next === open) return;
    if (next === null) dialog.close();
    else if (open === null) dialog.open(next === 'wizard' ? 'connect' : 'connection', card.id);
    else dialog.switchTo(next === 'wizard' ? 'connect' : 'connection', card.id);
  };
  const connected = isStoreConnected(card);
  const actions = useRef<HTMLSpanElement>(null);
  // Saving domains turns "Connect Store / Enter domains" into "Edit Connection / Download": when the button that
  // opened a dialog has gone, focus goes to the card's first action.
  const firstAction = () => actions.current?.querySelector('button');
  // The same when the change comes while focus is on the card's buttons (a dialog closed before the list refreshed).
  const focusInside = useRef(false);
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (focusInside.current && (!active || active === document.body)) firstAction()?.focus();
  }, [connected]);
  const currentToken = async () => (await queryClient.fetchQuery(keyTokenQueryOptions(licenseKey.api_key))).tokentheme;

  return (
    <span
      ref={actions}
      className="contents"
      onFocus={() => (focusInside.current = true)}
      onBlur={(event) => {
        if (event.relatedTarget) focusInside.current = false;
      }}
    >
      {connected ? (
        <>
          <Button size="sm" variant="secondary" onClick={() => setOpen('panel')}>
            <Settings2 aria-hidden="true" className="size-4" />
            Edit Connection
          </Button>
          <DownloadThemeButton
            size="sm"
            label="Download"
            accessibleName={`Download theme for ${card.name}`}
            licenseKey={licenseKey.api_key}
            licenseType={card.licenseType}
            token={currentToken}
            onTokenMissing={() => setOpen('panel')}
          />
        </>
      ) : (
        <>
          <Button size="sm" onClick={() => setOpen('wizard')}>
            <Link2 aria-hidden="true" className="size-4" />
            Connect Store
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setOpen('panel')}>
            Enter domains
          </Button>
        </>
      )}
      {open === 'wizard' ? (
        <Suspense fallback={null}>
          <ConnectWizard
            licenseKey={licenseKey}
            appStoreUrl={config.data?.links.appStoreUrl}
            open
            onOpenChange={(next) => setOpen(next ? 'wizard' : null)}
            fallbackFocus={firstAction}
          />
        </Suspense>
      ) : null}
      {open === 'panel' ? (
        <Suspense fallback={null}>
          <ConnectionPanel
            licenseKey={licenseKey}
            open
            onOpenChange={(next) => (next ? undefined : setOpen(null))}
            fallbackFocus={firstAction}
            setupVideoUrl={config.data?.links.setupGuideVideoUrl}
            renderDownload={(token) => (
              <DownloadThemeButton licenseKey={licenseKey.api_key} licenseType={card.licenseType} token={token} />
            )}
          />
        </Suspense>
      ) : null}
    </span>
  );
}
