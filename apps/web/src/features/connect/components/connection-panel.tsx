import { AlertTriangle, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import { DOWNLOAD_MESSAGES } from '@keyport/shared/contracts/releases';
import { EDIT_PANEL_FOCUS_DELAY_MS } from '@keyport/shared/domain/constants';
import { deriveStoreCard, NO_DOMAIN } from '@keyport/shared/domain/store-card';
import { stripStoredUrl, WEBSITE_DOMAIN_MESSAGES } from '@keyport/shared/domain/website-domain';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { useKeyToken } from '../api/get-key-token';
import { useSaveDomains } from '../api/save-domains';
import { tokenErrorMessage } from './connect-messages';
import { checkDomainFields, type DomainField, type DomainValues } from './connection-form';
import { SetupVideo } from './setup-video';
import { TokenBox } from './token-box';

interface ConnectionPanelProps {
  licenseKey: Key;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null when no setup-guide video is configured: then no player is shown at all. */
  setupVideoUrl: string | null | undefined;
  /** The download control for step 2 (from the downloads feature), given the token. */
  renderDownload: (token: string) => ReactNode;
  /** Where focus goes on close when the button that opened the panel has gone (the card's actions changed). */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

type FieldErrors = Partial<Record<DomainField, string>>;

function without(messages: FieldErrors, field: DomainField): FieldErrors {
  const next = { ...messages };
  delete next[field];
  return next;
}

/**
 * What a field shows and what it sends. They differ once a save has normalised the shown value: the request still
 * carries what the person typed, so a converted subdomain stays whitelisted beside its main domain on the next save.
 */
type FieldState = { shown: string; sent: string };
const typedIn = (value: string): FieldState => ({ shown: value, sent: value });

/**
 * §2 dialog 2 "Edit Connection / Connect to Store", a full-screen panel: step 1 Setup URLs (the form), step 2
 * Download Theme (the token and the download). Both steps stay on screen, so the notices and errors of step 1 are
 * still there, under their fields, once step 2 has its token.
 */
export function ConnectionPanel({
  licenseKey,
  open,
  onOpenChange,
  setupVideoUrl,
  renderDownload,
  fallbackFocus,
}: ConnectionPanelProps) {
  const card = deriveStoreCard(licenseKey);
  const save = useSaveDomains();
  const existingToken = useKeyToken(licenseKey.api_key, open);
  const [fields, setFields] = useState<Record<DomainField, FieldState>>({
    main: typedIn(stripStoredUrl(licenseKey.main_url)),
    myshopify: typedIn(stripStoredUrl(licenseKey.myshopify)),
    secondary: typedIn(stripStoredUrl(licenseKey.secondary_url)),
  });
  const [showSecondary, setShowSecondary] = useState(fields.secondary.shown !== '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notices, setNotices] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const inputs = useRef<Partial<Record<DomainField, HTMLInputElement | null>>>({});
  const token = existingToken.data?.tokentheme ?? null;
  // The title stays as the panel opened; the 'None' warning goes once the domains are saved.
  const [startedConnected] = useState(card.domain !== NO_DOMAIN);

  // §9: the first field is focused 100 ms after the panel opens.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => {
      // Never take focus from a field the person is already typing in (a click can beat the delay).
      const active = document.activeElement;
      if (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) return;
      inputs.current.main?.focus();
    }, EDIT_PANEL_FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [open]);

  /** A changed field loses its own error and notice; 'at least one domain' (under the first field) goes with any. */
  function change(field: DomainField, value: string) {
    setFields((current) => ({ ...current, [field]: typedIn(value) }));
    setErrors((current) => {
      const next = without(current, field);
      return next.main === WEBSITE_DOMAIN_MESSAGES.required ? without(next, 'main') : next;
    });
    setNotices((current) => without(current, field));
    setServerError(null);
  }

  function removeSecondary() {
    setShowSecondary(false);
    setFields((current) => ({ ...current, secondary: typedIn('') }));
    setErrors((current) => without(current, 'secondary'));
    setNotices((current) => without(current, 'secondary'));
    setServerError(null);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const sent: DomainValues = {
      main: fields.main.sent,
      myshopify: fields.myshopify.sent,
      secondary: showSecondary ? fields.secondary.sent : '',
    };
    const checked = checkDomainFields(sent);
    setServerError(null);
    if (!checked.ok) {
      setErrors(checked.errors);
      setNotices({});
      const first = (['main', 'myshopify', 'secondary'] as const).find((field) => checked.errors[field]);
      if (first) inputs.current[first]?.focus();
      return;
    }
    setErrors({});
    setNotices(checked.notices);
    // The fields show the normalised value; they keep sending what was typed until the person edits them.
    setFields({
      main: { shown: checked.normalised.main, sent: sent.main },
      myshopify: { shown: checked.normalised.myshopify, sent: sent.myshopify },
      secondary: { shown: checked.normalised.secondary, sent: sent.secondary },
    });
    save.mutate(
      { key: licenseKey.api_key, main_url: sent.main, myshopify: sent.myshopify, secondary_url: sent.secondary },
      {
        onSuccess: () => {
          setSaved(true);
          toast.success('Domains saved and a new token generated');
        },
        onError: (failure) => setServerError(tokenErrorMessage(failure)),
      },
    );
  }

  const field = (name: DomainField) => ({
    ref: (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
    value: fields[name].shown,
    error: errors[name] ?? null,
    notice: notices[name] ?? null,
    onChange: (e: { target: { value: string } }) => change(name, e.target.value),
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (save.isPending ? undefined : onOpenChange(next))}>
      <DialogContent
        title={startedConnected ? 'Edit Connection' : 'Connect to Store'}
        size="full"
        busy={save.isPending}
        fallbackFocus={fallbackFocus}
        onOpenAutoFocus={(event) => event.preventDefault()}
      >
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
          <div className="min-w-0 space-y-6">
            <div className="rounded-lg bg-slate-50 px-3 py-2">
              <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">License key</p>
              <div className="flex items-center gap-1">
                <code className="min-w-0 flex-1 font-mono text-sm break-all">{licenseKey.api_key}</code>
                <CopyButton value={licenseKey.api_key} label="Copy license key" />
              </div>
            </div>

            {!startedConnected && !saved ? (
              <Alert tone="info" className="flex gap-2">
                <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
                <span>
                  This key shows its domain as &quot;None&quot;: it is not connected to a store yet. Add the
                  store&apos;s domains below.
                </span>
              </Alert>
            ) : null}

            <section aria-labelledby="setup-urls-heading" className="space-y-4">
              <h3 id="setup-urls-heading" className="text-base font-semibold text-slate-900">
                1. Setup URLs
              </h3>
              <form onSubmit={submit} noValidate className="space-y-4">
                <Field
                  {...field('main')}
                  label="Website URL"
                  placeholder="yourstore.com"
                  hint="Your store's own domain. A subdomain such as shop.yourstore.com is whitelisted with its main domain."
                />
                <Field
                  {...field('myshopify')}
                  label="Shopify-platform URL (myshopify)"
                  placeholder="your-store.myshopify.com"
                />
                {showSecondary ? (
                  <Field
                    {...field('secondary')}
                    label="Secondary Domain"
                    placeholder="second-brand.com"
                    trailing={
                      <Button variant="ghost" aria-label="Remove secondary domain" onClick={removeSecondary}>
                        <Minus aria-hidden="true" className="size-4" />
                      </Button>
                    }
                  />
                ) : (
                  <Button variant="ghost" size="sm" onClick={() => setShowSecondary(true)}>
                    <Plus aria-hidden="true" className="size-4" />
                    Add Secondary Domain
                  </Button>
                )}
                {serverError ? <Alert>{serverError}</Alert> : null}
                <Button type="submit" aria-disabled={save.isPending || undefined}>
                  {save.isPending ? 'Saving…' : 'Save Domains & Generate Token'}
                </Button>
              </form>
            </section>

            <section aria-labelledby="download-theme-heading" className="space-y-3 border-t border-slate-200 pt-5">
              <h3 id="download-theme-heading" className="text-base font-semibold text-slate-900">
                2. Download Theme
              </h3>
              {token ? (
                <>
                  <div className="space-y-1.5">
                    <p className="text-sm font-medium text-slate-700">Authentication token</p>
                    <TokenBox token={token} />
                    <p className="text-xs text-slate-500">
                      Click to copy. Paste it in your store admin: Themes, Customize, Theme settings, License.
                    </p>
                  </div>
                  {renderDownload(token)}
                </>
              ) : existingToken.isPending ? (
                <Skeleton className="h-11 rounded-lg" />
              ) : (
                // Said once; the way on is the Save Domains & Generate Token button of step 1.
                <p className="text-sm text-slate-700" data-testid="token-missing">
                  {DOWNLOAD_MESSAGES.tokenMissing}
                </p>
              )}
            </section>
          </div>
          <SetupVideo url={setupVideoUrl ?? null} />
        </div>
      </DialogContent>
    </Dialog>
  );
}
