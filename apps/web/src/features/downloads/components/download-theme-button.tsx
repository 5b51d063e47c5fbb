import { Download, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FALLBACK_DOWNLOAD_TOAST_MS } from '@keyport/shared/domain/constants';
import { Button } from '../../../components/ui/button';
import { DOWNLOAD_TEXT, DownloadError, downloadTheme } from '../api/download-theme';

interface DownloadThemeButtonProps {
  licenseKey: string;
  licenseType: string;
  /** The key's auth token; null when none was generated yet. */
  token: string | null;
  variant?: 'primary' | 'secondary';
}

/** Downloads the theme with the token inside, with a progress bar and the §8 fallbacks. */
export function DownloadThemeButton({ licenseKey, licenseType, token, variant = 'primary' }: DownloadThemeButtonProps) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [manualLink, setManualLink] = useState<string | null>(null);

  async function start() {
    setBusy(true);
    setManualLink(null);
    setProgress(null);
    try {
      const outcome = await downloadTheme({ licenseKey, token, licenseType }, setProgress, () =>
        toast.error(DOWNLOAD_TEXT.failed),
      );
      if (outcome.withToken) toast.success(`Theme ${outcome.version} downloaded with your token inside`);
      else toast.warning(DOWNLOAD_TEXT.fallbackWarning, { duration: FALLBACK_DOWNLOAD_TOAST_MS });
    } catch (error) {
      const message = error instanceof DownloadError ? error.message : DOWNLOAD_TEXT.failed;
      toast.error(message);
      if (error instanceof DownloadError && error.manualLink) setManualLink(error.manualLink);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <div className="space-y-2">
      <Button variant={variant} onClick={() => void start()} disabled={busy} className="w-full sm:w-auto">
        {busy ? (
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <Download aria-hidden="true" className="size-4" />
        )}
        {busy ? 'Downloading…' : 'Download Theme'}
      </Button>
      {busy ? (
        <div
          role="progressbar"
          aria-label="Download progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progress === null ? undefined : Math.round(progress * 100)}
          className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div
            className={
              progress === null ? 'h-full w-1/3 animate-pulse bg-brand-500' : 'h-full bg-brand-600 transition-[width]'
            }
            style={progress === null ? undefined : { width: `${Math.round(progress * 100)}%` }}
          />
        </div>
      ) : null}
      {manualLink ? (
        <p className="text-sm text-slate-700">
          {DOWNLOAD_TEXT.failedCompletely}{' '}
          <a href={manualLink} className="font-medium text-brand-700 underline">
            Download manually
          </a>
        </p>
      ) : null}
    </div>
  );
}
