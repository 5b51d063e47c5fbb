import { Download, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FALLBACK_DOWNLOAD_TOAST_MS } from '@keyport/shared/domain/constants';
import { Button } from '../../../components/ui/button';

interface DownloadThemeButtonProps {
  licenseKey: string;
  licenseType: string;
  /** The key's auth token, or how to get it when the button is pressed (null: none was generated yet). */
  token: string | (() => Promise<string | null>);
  /** When given, a key without a token calls this instead of failing with the §8 text (the way to generate one). */
  onTokenMissing?: () => void;
  size?: 'sm' | 'md';
  label?: string;
  /** The accessible name, when the visible label alone is ambiguous (one Download button per card). */
  accessibleName?: string;
}

/**
 * Downloads the theme with the token inside, with a progress bar and the §8 fallbacks. The download code loads when
 * the button is first pressed. While busy the button stays focusable (aria-disabled), so focus never drops to the page.
 */
export function DownloadThemeButton({
  licenseKey,
  licenseType,
  token,
  onTokenMissing,
  size = 'md',
  label = 'Download Theme',
  accessibleName,
}: DownloadThemeButtonProps) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [manual, setManual] = useState<{ message: string; link: string } | null>(null);

  async function start() {
    if (busy) return;
    setBusy(true);
    setManual(null);
    setProgress(null);
    try {
      const { DOWNLOAD_TEXT, DownloadError, downloadTheme } = await import('../api/download-theme');
      try {
        const currentToken = typeof token === 'string' ? token : await token();
        if (!currentToken && onTokenMissing) {
          onTokenMissing();
          return;
        }
        const outcome = await downloadTheme({ licenseKey, token: currentToken, licenseType }, setProgress, () =>
          toast.error(DOWNLOAD_TEXT.failed),
        );
        if (outcome.withToken) toast.success(`Theme ${outcome.version} downloaded with your token inside`);
        else toast.warning(DOWNLOAD_TEXT.fallbackWarning, { duration: FALLBACK_DOWNLOAD_TOAST_MS });
      } catch (error) {
        toast.error(error instanceof DownloadError ? error.message : DOWNLOAD_TEXT.failed);
        if (error instanceof DownloadError && error.manualLink) {
          setManual({ message: error.message, link: error.manualLink });
        }
      }
    } catch {
      // The download code itself could not be loaded (offline, or a new release replaced it).
      toast.error('Download failed');
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <div className="space-y-2">
      <Button
        size={size}
        onClick={() => void start()}
        aria-disabled={busy || undefined}
        aria-label={accessibleName}
        className={size === 'md' ? 'w-full sm:w-auto' : undefined}
      >
        {busy ? (
          <Loader2 aria-hidden="true" className="size-4 animate-spin" />
        ) : (
          <Download aria-hidden="true" className="size-4" />
        )}
        {busy ? 'Downloading…' : label}
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
      {manual ? (
        <p className="text-sm text-slate-700">
          {manual.message}{' '}
          <a href={manual.link} className="font-medium text-brand-700 underline">
            Download manually
          </a>
        </p>
      ) : null}
    </div>
  );
}
