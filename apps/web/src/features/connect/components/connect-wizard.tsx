import { AlertTriangle, Check, Copy, ExternalLink, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import { validateWizardDomain } from '@keyport/shared/domain/shopify-domain';
import { stripStoredUrl } from '@keyport/shared/domain/website-domain';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { cn } from '../../../lib/cn';
import { useCopyToClipboard } from '../../../lib/use-copy-to-clipboard';
import { useUserStores } from '../api/get-user-stores';
import { useSaveDomains } from '../api/save-domains';
import { CONNECT_MESSAGES, tokenErrorMessage } from './connect-messages';

const STEPS = ['App', 'Domain', 'Auth Token'] as const;
type TokenState =
  | { status: 'idle' }
  | { status: 'generating' }
  | { status: 'ready'; token: string }
  | { status: 'error'; message: string };

interface ConnectWizardProps {
  licenseKey: Key;
  appStoreUrl: string | undefined;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close when the button that opened the wizard has gone (the card's actions changed). */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

/**
 * §2 dialog 1 "Connect Your Store": App (optional), Domain, Auth Token; §4 transitions. Nothing is saved until
 * Generate Token, which saves the domain and issues the token in one call: Cancel before that leaves the key exactly
 * as it was (ADR 009).
 */
export function ConnectWizard({ licenseKey, appStoreUrl, open, onOpenChange, fallbackFocus }: ConnectWizardProps) {
  const stores = useUserStores();
  const save = useSaveDomains();
  const [step, setStep] = useState(0);
  const [typed, setTyped] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  /** The domain chosen on the Domain step: validated, not saved yet. */
  const [domain, setDomain] = useState<string | null>(null);
  const [domainError, setDomainError] = useState<string | null>(null);
  const [token, setToken] = useState<TokenState>({ status: 'idle' });
  const { copied, copy: copyToken } = useCopyToClipboard();
  const storeList = stores.data?.stores ?? [];

  // A new step (or the token arriving) replaces the button that was pressed: focus its first control instead of
  // letting focus fall to the dialog.
  const body = useRef<HTMLDivElement>(null);
  const view = `${step}:${token.status === 'ready'}`;
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    body.current?.querySelector<HTMLElement>('input, button:not([disabled]), a[href]')?.focus();
  }, [view]);

  // Cancel resets everything and closes.
  function reset() {
    setStep(0);
    setTyped('');
    setSelected(null);
    setDomain(null);
    setDomainError(null);
    setToken({ status: 'idle' });
  }
  function close() {
    reset();
    onOpenChange(false);
  }

  // §4 "Next validates … then moves to 2": the check is the §5 rule, in the browser; the server applies it again when
  // Generate Token saves.
  function next() {
    const result = validateWizardDomain({ typed, selected, storesListed: storeList.length > 0 });
    if (!result.ok) {
      setDomainError(result.error);
      return;
    }
    setDomainError(null);
    // A token belongs to the domain it was issued for: choosing another one asks for a new token.
    if (result.domain !== domain) setToken({ status: 'idle' });
    setDomain(result.domain);
    setStep(2);
  }

  function generate() {
    if (!domain) {
      toast.error(CONNECT_MESSAGES.domainNotSet);
      setToken({ status: 'error', message: CONNECT_MESSAGES.domainNotSet });
      return;
    }
    setToken({ status: 'generating' });
    // The one save of the wizard: the platform domain (the other domains stay as they are) and a new token.
    save.mutate(
      {
        key: licenseKey.api_key,
        myshopify: domain,
        main_url: stripStoredUrl(licenseKey.main_url),
        secondary_url: stripStoredUrl(licenseKey.secondary_url),
      },
      {
        onSuccess: (result) => {
          if (!result.tokentheme) {
            toast.error(CONNECT_MESSAGES.noToken);
            setToken({ status: 'error', message: CONNECT_MESSAGES.noToken });
            return;
          }
          setToken({ status: 'ready', token: result.tokentheme });
        },
        onError: (error) => {
          const message = tokenErrorMessage(error);
          toast.error(message);
          setToken({ status: 'error', message });
        },
      },
    );
  }

  function complete() {
    toast.success('Store connected successfully');
    close();
  }

  const busy = save.isPending;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : busy ? undefined : close())}>
      <DialogContent title="Connect Your Store" size="lg" busy={busy} fallbackFocus={fallbackFocus}>
        <ol className="mb-5 flex items-center gap-2 text-xs font-medium" aria-label="Steps">
          {STEPS.map((label, index) => (
            <li
              key={label}
              className="flex flex-1 items-center gap-2"
              aria-current={index === step ? 'step' : undefined}
            >
              <span
                className={cn(
                  'flex size-6 shrink-0 items-center justify-center rounded-full',
                  index < step
                    ? 'bg-emerald-600 text-white'
                    : index === step
                      ? 'bg-brand-600 text-white'
                      : 'bg-slate-200 text-slate-600',
                )}
              >
                {index < step ? <Check aria-hidden="true" className="size-3.5" /> : index + 1}
              </span>
              <span className={index === step ? 'text-slate-900' : 'text-slate-500'}>{label}</span>
            </li>
          ))}
        </ol>

        <div ref={body}>
          {step === 0 ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-700">
                Optional: install the companion app from the Shopify App Store. It keeps your theme and license in sync.
              </p>
              {appStoreUrl ? (
                <a
                  href={appStoreUrl}
                  target="_blank"
                  rel="noreferrer"
                  className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
                >
                  Open the app in the Shopify App Store
                  <ExternalLink aria-hidden="true" className="size-3.5" />
                </a>
              ) : null}
              <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
                <Button variant="ghost" onClick={close}>
                  Cancel
                </Button>
                <Button variant="secondary" onClick={() => setStep(1)}>
                  Skip App Install
                </Button>
                <Button onClick={() => setStep(1)}>I&apos;ve Installed the App</Button>
              </div>
            </div>
          ) : null}

          {step === 1 ? (
            <div className="space-y-4">
              {storeList.length > 0 ? (
                <fieldset>
                  <legend className="mb-2 text-sm font-medium text-slate-700">Your connected stores</legend>
                  <div className="space-y-1.5">
                    {storeList.map((store) => (
                      <label
                        key={store.id}
                        className={cn(
                          'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm',
                          selected === store.myshopify_domain ? 'border-brand-500 bg-brand-50' : 'border-slate-200',
                        )}
                      >
                        <input
                          type="radio"
                          name="store"
                          value={store.myshopify_domain}
                          checked={selected === store.myshopify_domain}
                          onChange={() => {
                            setSelected(store.myshopify_domain);
                            setTyped('');
                            setDomainError(null);
                          }}
                        />
                        <span className="min-w-0 break-all">{store.myshopify_domain}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              ) : null}
              <Field
                label={storeList.length > 0 ? 'Or enter your store domain' : 'Store domain'}
                placeholder="your-store.myshopify.com"
                autoComplete="off"
                value={typed}
                error={domainError}
                onChange={(e) => {
                  setTyped(e.target.value);
                  setSelected(null);
                  setDomainError(null);
                }}
              />
              <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
                <Button variant="ghost" onClick={close}>
                  Cancel
                </Button>
                <Button variant="secondary" onClick={() => setStep(0)}>
                  Back
                </Button>
                <Button onClick={next}>Next</Button>
              </div>
            </div>
          ) : null}

          {step === 2 ? (
            <div className="space-y-4">
              <p className="text-sm text-slate-700">
                Store: <strong className="break-all">{domain}</strong>
              </p>
              {token.status === 'ready' ? (
                <>
                  <Alert tone="info" className="flex gap-2">
                    <AlertTriangle aria-hidden="true" className="size-4 shrink-0 text-amber-600" />
                    <span>Copy this token now and keep it safe. Generating a new one replaces it.</span>
                  </Alert>
                  <div className="flex items-center gap-2">
                    <code
                      className="min-w-0 flex-1 truncate rounded-lg bg-slate-100 px-3 py-2 font-mono text-xs"
                      data-testid="wizard-token"
                    >
                      {token.token}
                    </code>
                    <Button
                      variant={copied ? 'success' : 'secondary'}
                      onClick={() => void copyToken(token.token)}
                      aria-label={copied ? 'Token copied' : 'Copy token'}
                    >
                      {copied ? (
                        <Check aria-hidden="true" className="size-4" />
                      ) : (
                        <Copy aria-hidden="true" className="size-4" />
                      )}
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  </div>
                  <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700">
                    <li>Open your Shopify store admin.</li>
                    <li>Go to Online Store, then Themes, and click Customize.</li>
                    <li>Open Theme settings and find the License section.</li>
                    <li>Paste the token into the license token field.</li>
                    <li>Click Save.</li>
                  </ol>
                </>
              ) : token.status === 'error' ? (
                <Alert className="flex flex-wrap items-center justify-between gap-2">
                  <span>{token.message}</span>
                  <Button size="sm" variant="secondary" onClick={generate}>
                    Try Again
                  </Button>
                </Alert>
              ) : (
                <div className="rounded-lg border border-dashed border-slate-300 p-6 text-center">
                  <p className="mb-3 text-sm text-slate-600">
                    Generate the token the theme needs to activate its license.
                  </p>
                  <Button onClick={generate} disabled={token.status === 'generating'}>
                    {token.status === 'generating' ? (
                      <Loader2 aria-hidden="true" className="size-4 animate-spin" />
                    ) : null}
                    {token.status === 'generating' ? 'Generating…' : 'Generate Token'}
                  </Button>
                </div>
              )}
              <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
                {/* Once the token exists the domain is saved: there is nothing left to cancel, only to complete. */}
                {token.status === 'ready' ? null : (
                  <Button variant="ghost" onClick={close} disabled={busy}>
                    Cancel
                  </Button>
                )}
                <Button variant="secondary" onClick={() => setStep(1)} disabled={busy}>
                  Back
                </Button>
                <Button onClick={complete} disabled={token.status !== 'ready'}>
                  Complete Setup
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}
