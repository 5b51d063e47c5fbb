import { Ticket } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { Key } from '@keyport/shared/contracts/keys';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { checkTokenRedemption, TOKEN_MESSAGES } from '@keyport/shared/domain/card-payment';
import { tokenRedeemedMessage } from '@keyport/shared/domain/upgrade-paths';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { ApiError, serverMessage } from '../../../lib/api-client';
import { useRedeemUpgradeToken } from '../api/redeem-upgrade-token';

interface TokenRedeemBoxProps {
  licenseKey: Key;
  selected: UpgradeOption | null;
  expanded: boolean;
  onExpandedChange: (expanded: boolean) => void;
  onRedeemed: (redeemed: { analytics_event_id?: string }) => void;
  onBusyChange: (busy: boolean) => void;
  disabled?: boolean;
}

/**
 * §2 dialog 4 "Use Token": redeem a single-use upgrade token for the selected upgrade instead of paying (§5 rules,
 * §8 texts; the success toast 'Successfully upgraded {from} to {to}!').
 */
export function TokenRedeemBox({
  licenseKey,
  selected,
  expanded,
  onExpandedChange,
  onRedeemed,
  onBusyChange,
  disabled,
}: TokenRedeemBoxProps) {
  const redeem = useRedeemUpgradeToken();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = checkTokenRedemption({ token, option: selected });
    if (!check.ok) return setError(check.message);
    const { path, token: upgradeKey } = check;
    setError(null);
    onBusyChange(true);
    redeem.mutate(
      { path, upgradeKey, licenseKey: licenseKey.api_key },
      {
        onSuccess: (redeemed) => {
          toast.success(tokenRedeemedMessage(path));
          setToken('');
          onRedeemed(redeemed);
        },
        onError: (failure) =>
          setError(
            failure instanceof ApiError
              ? serverMessage(failure) !== null
                ? failure.message
                : TOKEN_MESSAGES.failed
              : TOKEN_MESSAGES.unexpected,
          ),
        onSettled: () => onBusyChange(false),
      },
    );
  }

  return (
    <section aria-labelledby={`${inputId}-heading`} className="rounded-xl border border-slate-200 p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 id={`${inputId}-heading`} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <Ticket aria-hidden="true" className="size-4 text-slate-500" />
          Have an upgrade token?
        </h3>
        <Button
          size="sm"
          variant={expanded ? 'ghost' : 'secondary'}
          aria-expanded={expanded}
          aria-controls={`${inputId}-form`}
          className="shrink-0 whitespace-nowrap"
          disabled={disabled || redeem.isPending}
          onClick={() => {
            setError(null);
            onExpandedChange(!expanded);
          }}
        >
          {expanded ? 'Pay by card instead' : 'Use Token'}
        </Button>
      </div>
      {expanded ? (
        <form id={`${inputId}-form`} onSubmit={submit} noValidate className="mt-3 space-y-2">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
            Upgrade token
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Input
              id={inputId}
              value={token}
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(event) => {
                // §5 "The token is trimmed": a token holds no spaces, so the box never keeps any around it.
                setToken(event.target.value.trim());
                setError(null);
              }}
            />
            <Button type="submit" disabled={redeem.isPending} className="shrink-0">
              {redeem.isPending ? 'Redeeming…' : 'Redeem Token'}
            </Button>
          </div>
          {error ? (
            <p id={`${inputId}-error`} role="alert" className="text-sm text-red-600">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
    </section>
  );
}
