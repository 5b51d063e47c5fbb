import { zodResolver } from '@hookform/resolvers/zod';
import type { UpgradePrice } from '@keyport/shared/contracts/upgrades';
import { saveUpgradePrices } from '@keyport/shared/contracts/upgrades';
import { formatUsd } from '@keyport/shared/domain/money';
import { upgradePathLabel } from '@keyport/shared/domain/upgrade-paths';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { Field } from '../../../components/ui/field';
import { ConfirmAction } from '../components/confirm-action';
import { useUpgradePrices } from './api/get-upgrade-prices';
import { useSaveUpgradePrices } from './api/save-upgrade-prices';
import { CatalogueSection, CatalogueTable, cell } from './components/catalogue-section';
import { optionalText, usdText } from './components/text-fields';

/** One path's change as `PUT /staff/upgrade-prices` takes it, from the form's text. */
const priceChange = saveUpgradePrices.body.shape.prices.def.element.shape;
const PriceFormSchema = z.object({
  amount_cents: usdText(priceChange.amount_cents),
  price_id: optionalText(priceChange.price_id),
});

const priceText = (cents: number) => (cents / 100).toFixed(2);

function EditPrice({ price }: { price: UpgradePrice }) {
  const save = useSaveUpgradePrices();
  const form = useForm({
    resolver: zodResolver(PriceFormSchema),
    values: { amount_cents: priceText(price.amount_cents), price_id: price.price_id ?? '' },
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Price of ${upgradePathLabel(price.path)}`}
      description="New checkouts use the new price at once; orders already started keep the price they were quoted. Without a provider price id the upgrade cannot be bought by card."
      confirmLabel="Save price"
      checkFields={() => form.trigger()}
      onConfirm={(reason) =>
        save.mutateAsync({
          body: { prices: [{ path: price.path, ...PriceFormSchema.parse(form.getValues()) }], reason },
        })
      }
    >
      <Field
        label="Price (USD)"
        inputMode="decimal"
        {...form.register('amount_cents')}
        error={errors.amount_cents?.message}
      />
      <Field label="Provider price id" {...form.register('price_id')} error={errors.price_id?.message} />
    </ConfirmAction>
  );
}

/** Upgrade prices and their provider price ids (issue 12). */
export function UpgradePricesEditor() {
  const prices = useUpgradePrices();
  return (
    <CatalogueSection title="Upgrade prices" query={prices}>
      <CatalogueTable caption="Upgrade prices" headers={['Path', 'Price', 'Provider price id', 'Actions']}>
        {prices.data?.prices.map((price) => (
          <tr key={price.path}>
            <td className={cell}>{upgradePathLabel(price.path)}</td>
            <td className={cell}>{formatUsd(price.amount_cents)}</td>
            <td className={`${cell} font-mono text-xs`}>{price.price_id ?? 'none (not buyable by card)'}</td>
            <td className={cell}>
              <EditPrice price={price} />
            </td>
          </tr>
        ))}
      </CatalogueTable>
    </CatalogueSection>
  );
}
