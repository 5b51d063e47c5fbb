import { AlertTriangle, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import { DOWNLOAD_MESSAGES } from '@keyport/shared/contracts/releases';
import { EDIT_PANEL_FOCUS_DELAY_MS } from '@keyport/shared/domain/constants';
import { deriveStoreCard, NO_DOMAIN } from '@keyport/shared/domain/store-card';
import { stripStoredUrl, validateConnectionDomains } from '@keyport/shared/domain/website-domain';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { useKeyToken } from '../api/get-key-token';
import { useSaveDomains } from '../api/save-domains';
import { tokenErrorMessage } from './connect-messages';
import { SetupVideo } from './setup-video';
import { TokenBox } from './token-box';

interface ConnectionPanelProps {
  licenseKey: Key;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  setupVideoUrl: string | undefined;
  /** The download control for step 2 (from the downloads feature), given the token. */
  renderDownload: (token: string) => ReactNode;
  /** 2 opens straight on Download Theme (from a card's Download button). */
  initialStep?: 1 | 2;
}

/** §2 dialog 2 "Edit Connection / Connect to Store": Setup URLs, then Download Theme. */
export function ConnectionPanel({
  licenseKey,
  open,
  onOpenChange,
  setupVideoUrl,
  renderDownload,
  initialStep = 1,
}: ConnectionPanelProps) {
  const card = deriveStoreCard(licenseKey);
  const save = useSaveDomains();
  const existingToken = useKeyToken(licenseKey.api_key, open);
  const [step, setStep] = useState<1 | 2>(initialStep);
  const [form, setForm] = useState({
    main: stripStoredUrl(licenseKey.main_url),
    myshopify: stripStoredUrl(licenseKey.myshopify),
    secondary: stripStoredUrl(licenseKey.secondary_url),
  });
  const [showSecondary, setShowSecondary] = useState(form.secondary !== '');
  const [error, setError] = useState<string | null>(null);
  const [notices, setNotices] = useState<string[]>([]);
  const firstField = useRef<HTMLInputElement>(null);
  const token = existingToken.data?.tokentheme ?? null;

  // §9: the first field is focused 100 ms after the panel opens.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => firstField.current?.focus(), EDIT_PANEL_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = {
      main_url: form.main,
      myshopify: form.myshopify,
      secondary_url: showSecondary ? form.secondary : '',
    };
    const checked = validateConnectionDomains(input);
    if (!checked.ok) {
      setError(checked.error);
      return;
    }
    setError(null);
    setNotices(checked.notices);
    checked.notices.forEach((notice) => toast.info(notice));
    save.mutate(
      { key: licenseKey.api_key, ...input },
      {
        onSuccess: () => {
          toast.success('Domains saved and a new token generated');
          setStep(2);
        },
        onError: (failure) => {
          const message = tokenErrorMessage(failure);
          setError(message);
          toast.error(message);
        },
      },
    );
  }

  // Fixed when the panel opens: the title and the 'None' warning do not flip once the domains are saved.
  const [connected] = useState(card.domain !== NO_DOMAIN);
  return (
    <Dialog open={open} onOpenChange={(next) => (save.isPending ? undefined : onOpenChange(next))}>
      <DialogContent
        title={connected ? 'Edit Connection' : 'Connect to Store'}
        size="full"
        busy={save.isPending}
        onOpenAutoFocus={(event) => event.preventDefault()}
      >
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-5">
            <div className="rounded-lg bg-slate-50 px-3 py-2">
              <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">License key</p>
              <div className="flex items-center gap-1">
                <code className="min-w-0 flex-1 font-mono text-sm break-all">{licenseKey.api_key}</code>
                <CopyButton value={licenseKey.api_key} label="Copy license key" />
              </div>
            </div>

            {!connected ? (
              <Alert tone="info" className="flex gap-2">
                <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
                <span>
                  This key shows its domain as &quot;None&quot;: it is not connected to a store yet. Add the
                  store&apos;s domains below.
                </span>
              </Alert>
            ) : null}

            <ol className="flex gap-4 text-sm font-medium" aria-label="Steps">
              <li
                aria-current={step === 1 ? 'step' : undefined}
                className={step === 1 ? 'text-brand-700' : 'text-slate-500'}
              >
                1. Setup URLs
              </li>
              <li
                aria-current={step === 2 ? 'step' : undefined}
                className={step === 2 ? 'text-brand-700' : 'text-slate-500'}
              >
                2. Download Theme
              </li>
            </ol>

            {step === 1 ? (
              <form onSubmit={submit} noValidate className="space-y-4">
                <Field
                  ref={firstField}
                  label="Website URL"
                  placeholder="yourstore.com"
                  hint="Your store's own domain. A subdomain such as shop.yourstore.com is whitelisted with its main domain."
                  value={form.main}
                  onChange={(e) => setForm({ ...form, main: e.target.value })}
                />
                <Field
                  label="Shopify-platform URL (myshopify)"
                  placeholder="your-store.myshopify.com"
                  value={form.myshopify}
                  onChange={(e) => setForm({ ...form, myshopify: e.target.value })}
                />
                {showSecondary ? (
                  <div className="flex items-end gap-2">
                    <div className="flex-1">
                      <Field
                        label="Secondary Domain"
                        placeholder="second-brand.com"
                        value={form.secondary}
                        onChange={(e) => setForm({ ...form, secondary: e.target.value })}
                      />
                    </div>
                    <Button
                      variant="ghost"
                      aria-label="Remove secondary domain"
                      onClick={() => {
                        setShowSecondary(false);
                        setForm({ ...form, secondary: '' });
                      }}
                    >
                      <Minus aria-hidden="true" className="size-4" />
                    </Button>
                  </div>
                ) : (
                  <Button variant="ghost" size="sm" onClick={() => setShowSecondary(true)}>
                    <Plus aria-hidden="true" className="size-4" />
                    Add Secondary Domain
                  </Button>
                )}
                {error ? <Alert>{error}</Alert> : null}
                {notices.map((notice) => (
                  <Alert key={notice} tone="info">
                    {notice}
                  </Alert>
                ))}
                <div className="flex flex-col gap-2 sm:flex-row">
                  <Button type="submit" disabled={save.isPending}>
                    {save.isPending ? 'Saving…' : 'Save Domains & Generate Token'}
                  </Button>
                  {token ? (
                    <Button variant="secondary" onClick={() => setStep(2)}>
                      Use the current token
                    </Button>
                  ) : null}
                </div>
              </form>
            ) : (
              <div className="space-y-4">
                <div className="space-y-1.5">
                  <p className="text-sm font-medium text-slate-700">Authentication token</p>
                  {token ? (
                    <TokenBox token={token} />
                  ) : existingToken.isPending ? null : (
                    <Alert tone="info" className="flex flex-wrap items-center justify-between gap-2">
                      <span>{DOWNLOAD_MESSAGES.tokenMissing}</span>
                      <Button size="sm" variant="secondary" onClick={() => setStep(1)}>
                        Go to Setup URLs
                      </Button>
                    </Alert>
                  )}
                  <p className="text-xs text-slate-500">
                    Click to copy. Paste it in your store admin: Themes, Customize, Theme settings, License.
                  </p>
                </div>
                {token ? renderDownload(token) : null}
                <Button variant="ghost" onClick={() => setStep(1)}>
                  Back to Setup URLs
                </Button>
              </div>
            )}
          </div>
          <SetupVideo url={setupVideoUrl} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
