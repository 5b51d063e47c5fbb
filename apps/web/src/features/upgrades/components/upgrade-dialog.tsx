import { useQueryClient } from '@tanstack/react-query';
import { KeyRound, PartyPopper } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { Key } from '@keyport/shared/contracts/keys';
import type { OrderQuote } from '@keyport/shared/contracts/payments';
import type { UpgradeOption } from '@keyport/shared/contracts/upgrades';
import { toBillingInput } from '@keyport/shared/domain/billing';
import { CARD_PAYMENT_MESSAGES } from '@keyport/shared/domain/card-payment';
import { tierFromFlags } from '@keyport/shared/domain/tiers';
import type { UpgradePath } from '@keyport/shared/domain/upgrade-paths';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { TIER_STYLES } from '../../../components/ui/tier-style';
import { useUpgradeOptions } from '../api/get-upgrade-options';
import { payForUpgrade } from '../payment/pay-for-upgrade';
import { OrderSummary } from './order-summary';
import { PaymentColumn } from './payment-column';
import { PaypalSection } from './paypal-section';
import { TokenRedeemBox } from './token-redeem-box';
import { UpgradeOptionCards } from './upgrade-option-cards';
import { saveUpgradeInfo } from './save-upgrade-info';
import { UpgradeSuccess } from './upgrade-success';
import { usePurchaseForm } from './use-purchase-form';
import { queryKeys } from '../../../lib/query-keys';
import { track } from '../../../lib/analytics';
import { checkoutProperties, upgradeOptionProperties } from './upgrade-analytics';

/** §8 "Upgrade flows". */
export const UPGRADE_OPTIONS_FAILED = 'Failed to load upgrade options';
/** §2 dialog 4: the highest tier has no upgrades. */
export const ALL_SET = "You're all set!";

interface UpgradeDialogProps {
  licenseKey: Key;
  /** The upgrade to select first (the dashboard picker's choice). */
  initialPath?: UpgradePath | null;
  /** Called once a payment completed the upgrade (the dashboard picker says so and reloads its data). */
  onPurchased?: () => void;
  onClose: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}

/**
 * §2 dialog 4 "Upgrade License", two columns. Left: the current license, the upgrade options (auto-selected when
 * there is one), the order summary and the Use Token box. Right: billing and card, or one of the empty states. After
 * payment, the success screen.
 */
export default function UpgradeDialog({
  licenseKey,
  initialPath = null,
  onPurchased,
  onClose,
  onCloseAutoFocus,
}: UpgradeDialogProps) {
  const options = useUpgradeOptions(licenseKey.api_key);
  const [chosen, setChosen] = useState<UpgradePath | null>(initialPath);
  const [useToken, setUseToken] = useState(false);
  const [busy, setBusy] = useState(false);
  const [completed, setCompleted] = useState<UpgradePath | null>(null);
  const queryClient = useQueryClient();

  const current = options.data?.key ?? licenseKey;
  const tier = tierFromFlags(current);
  const list = options.data?.options ?? [];
  const selected = list.length === 1 ? list[0]! : (list.find((option) => option.path === chosen) ?? null);

  const { billing, card, amounts, setPayment, columnProps } = usePurchaseForm(selected?.price_cents ?? null);

  // Analytics (fire-and-forget, never awaited): Viewed Upgrade Options once the options are shown.
  const viewed = useRef(false);
  useEffect(() => {
    if (viewed.current || !options.data || options.data.options.length === 0) return;
    viewed.current = true;
    track('Viewed Upgrade Options', {
      license_key: options.data.key.api_key,
      upgrade_from: tierFromFlags(options.data.key),
      upgrade_options: options.data.options.map((option) => option.path),
    });
  }, [options.data]);

  // One payment at a time, even for a double click that lands before the button is disabled.
  const paying = useRef(false);
  async function pay() {
    if (!selected || paying.current) return;
    paying.current = true;
    track('Started Upgrade Checkout', checkoutProperties(current, selected, billing, 'card'));
    setPayment({ status: 'processing' });
    setBusy(true);
    const outcome = await payForUpgrade({
      option: selected,
      licenseKey: current,
      billing: toBillingInput(billing),
      confirmer: card.confirmer,
    }).finally(() => {
      paying.current = false;
    });
    setBusy(false);
    if (outcome.status === 'error') {
      setPayment({ status: 'error', message: outcome.message });
      return;
    }
    paid(selected, outcome);
  }

  /**
   * A completed payment, by card or PayPal: the success screen, and the lists fetched again. Completed Upgrade
   * Purchase is the server's event, recorded with the settled order (issue 19): the browser sends none.
   */
  function paid(option: UpgradeOption, outcome: { order: OrderQuote; key: Key | null }) {
    const { path } = option;
    const upgraded = outcome.key;
    setPayment({ status: 'succeeded' });
    setCompleted(path);
    onPurchased?.();
    // The card shows its new tier at once; the lists are fetched again behind it.
    if (upgraded) {
      queryClient.setQueryData<Key[]>(queryKeys.keys, (keys) =>
        keys?.map((key) => (key.id === upgraded.id ? upgraded : key)),
      );
    }
    void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
    void queryClient.invalidateQueries({ queryKey: queryKeys.purchasedUpgrades });
    void queryClient.invalidateQueries({ queryKey: queryKeys.upgradeOptionsAll });
  }

  return (
    <Dialog open onOpenChange={(open) => (open || busy ? undefined : onClose())}>
      <DialogContent
        title="Upgrade License"
        size="xl"
        busy={busy}
        onCloseAutoFocus={onCloseAutoFocus}
        description={completed ? undefined : 'Move this license to a higher tier, by card or with an upgrade token.'}
      >
        {completed ? (
          <UpgradeSuccess
            path={completed}
            onClose={onClose}
            onUpgradeThemeFiles={() => saveUpgradeInfo(licenseKey, completed)}
          />
        ) : options.isError ? (
          <Alert className="flex flex-wrap items-center justify-between gap-3">
            <span>{UPGRADE_OPTIONS_FAILED}</span>
          </Alert>
        ) : !options.isPending && list.length === 0 ? (
          <div className="flex flex-col items-center px-2 py-8 text-center">
            <PartyPopper aria-hidden="true" className="mb-3 size-10 text-purple-600" />
            <h3 className="text-lg font-semibold text-slate-900">{ALL_SET}</h3>
            <p className="mt-1 text-sm text-slate-600">This license is already {tier}: there is no higher tier.</p>
          </div>
        ) : (
          <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
            <div className="min-w-0 space-y-4">
              <section aria-label="Current license" className="rounded-xl border border-slate-200 p-4">
                <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Current license</p>
                <div className="mt-1 flex items-center justify-between gap-2">
                  <p className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
                    <KeyRound aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                    <code className="font-mono break-all">{current.api_key}</code>
                  </p>
                  <Badge className={TIER_STYLES[tier].badge}>{tier}</Badge>
                </div>
              </section>
              {options.isPending ? (
                <div className="space-y-2" aria-busy="true" aria-label="Loading upgrade options">
                  <Skeleton className="h-16" />
                  <Skeleton className="h-16" />
                </div>
              ) : (
                <UpgradeOptionCards
                  options={list}
                  selected={selected?.path ?? null}
                  onSelect={(path) => {
                    setChosen(path);
                    const option = list.find((candidate) => candidate.path === path);
                    if (option) track('Selected Upgrade', upgradeOptionProperties(current, option));
                  }}
                  disabled={busy}
                />
              )}
              {amounts && !useToken ? <OrderSummary amounts={amounts} /> : null}
              <TokenRedeemBox
                licenseKey={current}
                selected={selected}
                expanded={useToken}
                onExpandedChange={setUseToken}
                onBusyChange={setBusy}
                // Completed Upgrade Token Redemption is the server's event, recorded with the redemption (issue 19).
                onRedeemed={() => onClose()}
                disabled={busy}
              />
            </div>
            <PaymentColumn
              selected={
                selected && {
                  priceId: selected.priceId,
                  missingPriceMessage: CARD_PAYMENT_MESSAGES.noPriceId(selected.to),
                }
              }
              useToken={useToken}
              {...columnProps(() => void pay())}
              wallet={
                selected ? (
                  <PaypalSection
                    option={selected}
                    licenseKey={current}
                    billing={billing}
                    disabled={busy}
                    onBusyChange={setBusy}
                    onStart={() => {
                      track('Started Upgrade Checkout', checkoutProperties(current, selected, billing, 'paypal'));
                    }}
                    onPaid={(outcome) => paid(selected, outcome)}
                  />
                ) : null
              }
            />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
