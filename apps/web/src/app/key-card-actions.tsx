import { Download, Link2, Settings2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import { isStoreConnected, type StoreCard } from '@keyport/shared/domain/store-card';
import { Button } from '../components/ui/button';
import { usePublicConfig } from '../lib/public-config';

// The connect dialogs load when first opened; the dashboard's initial bundle stays within budget.
const ConnectWizard = lazy(() =>
  import('../features/connect/components/connect-wizard').then((m) => ({ default: m.ConnectWizard })),
);
const ConnectionPanel = lazy(() =>
  import('../features/connect/components/connection-panel').then((m) => ({ default: m.ConnectionPanel })),
);
const DownloadThemeButton = lazy(() =>
  import('../features/downloads/components/download-theme-button').then((m) => ({ default: m.DownloadThemeButton })),
);

/** The card's connect, edit-connection and download actions: composes the connect and downloads features. */
export function KeyCardActions({ card, licenseKey }: { card: StoreCard; licenseKey: Key }) {
  const config = usePublicConfig();
  const [open, setOpen] = useState<'wizard' | 'panel' | 'download' | null>(null);
  const connected = isStoreConnected(card);

  return (
    <>
      {connected ? (
        <>
          <Button size="sm" variant="secondary" onClick={() => setOpen('panel')}>
            <Settings2 aria-hidden="true" className="size-4" />
            Edit Connection
          </Button>
          <Button size="sm" onClick={() => setOpen('download')} aria-label={`Download theme for ${card.name}`}>
            <Download aria-hidden="true" className="size-4" />
            Download
          </Button>
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
          />
        </Suspense>
      ) : null}
      {open === 'panel' || open === 'download' ? (
        <Suspense fallback={null}>
          <ConnectionPanel
            licenseKey={licenseKey}
            open
            onOpenChange={(next) => (next ? undefined : setOpen(null))}
            initialStep={open === 'download' ? 2 : 1}
            setupVideoUrl={config.data?.links.setupGuideVideoUrl}
            renderDownload={(token) => (
              <Suspense fallback={null}>
                <DownloadThemeButton licenseKey={licenseKey.api_key} licenseType={card.licenseType} token={token} />
              </Suspense>
            )}
          />
        </Suspense>
      ) : null}
    </>
  );
}
