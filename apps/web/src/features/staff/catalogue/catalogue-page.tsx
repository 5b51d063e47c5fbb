import type { StaffCreditPack, StaffRedeemProduct } from '@keyport/shared/contracts/credits';
import type { UpgradePrice } from '@keyport/shared/contracts/upgrades';
import { formatUsd, parseUsdToCents } from '@keyport/shared/domain/money';
import { upgradePathLabel } from '@keyport/shared/domain/upgrade-paths';
import { useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Field } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { serverMessage } from '../../../lib/api-client';
import { ConfirmAction } from '../components/confirm-action';
import { StaffPageHeader } from '../components/staff-layout';
import { useCreditPacks } from './api/list-credit-packs';
import { useRedeemProducts } from './api/list-redeem-products';
import { useUpgradePrices } from './api/get-upgrade-prices';
import { useRetireRedeemProduct } from './api/retire-redeem-product';
import { useCreateCreditPack, useUpdateCreditPack } from './api/save-credit-pack';
import { useCreateRedeemProduct, useUpdateRedeemProduct } from './api/save-redeem-product';
import { useSaveUpgradePrices } from './api/save-upgrade-prices';

/** A typed price → cents, or an error the dialog shows (it stays open). */
function centsOf(text: string): number {
  const cents = parseUsdToCents(text);
  if (cents === null || cents <= 0) throw new Error('Enter a price such as 120.00');
  return cents;
}

const priceText = (cents: number) => (cents / 100).toFixed(2);
const optional = (text: string) => (text.trim() === '' ? null : text.trim());

/** One catalogue list: a heading, its actions, and its table (or its loading / error state). */
function Section({
  title,
  actions,
  query,
  children,
}: {
  title: string;
  actions?: ReactNode;
  query: { isPending: boolean; error: unknown };
  children: ReactNode;
}) {
  const id = title.toLowerCase().replaceAll(' ', '-');
  return (
    <section aria-labelledby={id} className="mb-10">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {query.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : query.error ? (
        <Alert>{serverMessage(query.error) ?? 'Could not load this list.'}</Alert>
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white">{children}</div>
      )}
    </section>
  );
}

function Table({ caption, headers, children }: { caption: string; headers: string[]; children: ReactNode }) {
  return (
    <table className="w-full border-collapse text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-50">
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col" className="px-3 py-2 text-xs font-semibold text-slate-600 uppercase">
              {header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

const cell = 'border-t border-slate-100 px-3 py-2 align-top';

function EditPrice({ price }: { price: UpgradePrice }) {
  const save = useSaveUpgradePrices();
  const [amount, setAmount] = useState(priceText(price.amount_cents));
  const [priceId, setPriceId] = useState(price.price_id ?? '');
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Price of ${upgradePathLabel(price.path)}`}
      description="New checkouts use the new price at once; orders already started keep the price they were quoted. Without a provider price id the upgrade cannot be bought by card."
      confirmLabel="Save price"
      onConfirm={(reason) =>
        save.mutateAsync({
          body: {
            prices: [{ path: price.path, amount_cents: centsOf(amount), price_id: optional(priceId) }],
            reason,
          },
        })
      }
    >
      <Field
        label="Price (USD)"
        inputMode="decimal"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <Field label="Provider price id" value={priceId} onChange={(event) => setPriceId(event.target.value)} />
    </ConfirmAction>
  );
}

interface PackForm {
  name: string;
  credits: string;
  amount: string;
  priceId: string;
  active: boolean;
}

function PackFields({ form, onChange }: { form: PackForm; onChange: (form: PackForm) => void }) {
  return (
    <>
      <Field label="Name" value={form.name} onChange={(event) => onChange({ ...form, name: event.target.value })} />
      <Field
        label="Credits"
        type="number"
        min={1}
        value={form.credits}
        onChange={(event) => onChange({ ...form, credits: event.target.value })}
      />
      <Field
        label="Price (USD)"
        inputMode="decimal"
        value={form.amount}
        onChange={(event) => onChange({ ...form, amount: event.target.value })}
      />
      <Field
        label="Provider price id"
        value={form.priceId}
        onChange={(event) => onChange({ ...form, priceId: event.target.value })}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={form.active}
          onChange={(event) => onChange({ ...form, active: event.target.checked })}
        />
        On sale
      </label>
    </>
  );
}

const packBody = (form: PackForm, reason: string) => ({
  name: form.name,
  credits: Number(form.credits),
  amount_cents: centsOf(form.amount),
  provider_price_id: optional(form.priceId),
  active: form.active,
  reason,
});

function NewPack() {
  const create = useCreateCreditPack();
  const [form, setForm] = useState<PackForm>({ name: '', credits: '10', amount: '', priceId: '', active: true });
  return (
    <ConfirmAction
      triggerLabel="New credit pack"
      title="New credit pack"
      description="Team members can buy it as soon as it is on sale (by card once it has a provider price id)."
      confirmLabel="Create pack"
      onConfirm={(reason) => create.mutateAsync({ body: packBody(form, reason) })}
    >
      <PackFields form={form} onChange={setForm} />
    </ConfirmAction>
  );
}

function EditPack({ pack }: { pack: StaffCreditPack }) {
  const update = useUpdateCreditPack();
  const [form, setForm] = useState<PackForm>({
    name: pack.name,
    credits: String(pack.credits),
    amount: priceText(pack.price_cents),
    priceId: pack.priceId ?? '',
    active: pack.active,
  });
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Edit ${pack.name}`}
      description="Changes apply to new checkouts; orders already started keep what they were quoted."
      confirmLabel="Save pack"
      onConfirm={(reason) => update.mutateAsync({ params: { id: String(pack.id) }, body: packBody(form, reason) })}
    >
      <PackFields form={form} onChange={setForm} />
    </ConfirmAction>
  );
}

interface ProductForm {
  name: string;
  description: string;
  grantType: string;
  grantValue: string;
  cost: string;
}

function ProductFields({ form, onChange }: { form: ProductForm; onChange: (form: ProductForm) => void }) {
  return (
    <>
      <Field label="Name" value={form.name} onChange={(event) => onChange({ ...form, name: event.target.value })} />
      <Field
        label="Description"
        value={form.description}
        onChange={(event) => onChange({ ...form, description: event.target.value })}
      />
      <Field
        label="Grant type"
        value={form.grantType}
        hint="license_level grants a license of the tier in Grant value"
        onChange={(event) => onChange({ ...form, grantType: event.target.value })}
      />
      <Field
        label="Grant value"
        value={form.grantValue}
        onChange={(event) => onChange({ ...form, grantValue: event.target.value })}
      />
      <Field
        label="Cost (credits)"
        type="number"
        min={1}
        value={form.cost}
        onChange={(event) => onChange({ ...form, cost: event.target.value })}
      />
    </>
  );
}

const productBody = (form: ProductForm, reason: string) => ({
  name: form.name,
  description: form.description,
  grant_type: form.grantType,
  grant_value: form.grantValue,
  cost_credits: Number(form.cost),
  reason,
});

function NewProduct() {
  const create = useCreateRedeemProduct();
  const [form, setForm] = useState<ProductForm>({
    name: '',
    description: '',
    grantType: 'license_level',
    grantValue: 'LITE',
    cost: '1',
  });
  return (
    <ConfirmAction
      triggerLabel="New redeem product"
      title="New redeem product"
      description="Customers can spend credits on it at once."
      confirmLabel="Create product"
      onConfirm={(reason) => create.mutateAsync({ body: productBody(form, reason) })}
    >
      <ProductFields form={form} onChange={setForm} />
    </ConfirmAction>
  );
}

function EditProduct({ product }: { product: StaffRedeemProduct }) {
  const update = useUpdateRedeemProduct();
  const [form, setForm] = useState<ProductForm>({
    name: product.name,
    description: product.description,
    grantType: product.grant_type,
    grantValue: product.grant_value,
    cost: String(product.cost_credits),
  });
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Edit ${product.name}`}
      description="Past redemptions keep what they cost."
      confirmLabel="Save product"
      onConfirm={(reason) =>
        update.mutateAsync({
          params: { id: String(product.id) },
          body: { ...productBody(form, reason), active: product.active },
        })
      }
    >
      <ProductFields form={form} onChange={setForm} />
    </ConfirmAction>
  );
}

function RetireProduct({ product }: { product: StaffRedeemProduct }) {
  const retire = useRetireRedeemProduct();
  return (
    <ConfirmAction
      triggerLabel="Retire"
      title={`Retire ${product.name}?`}
      description="It is no longer offered to customers; past redemptions keep referring to it."
      confirmLabel="Retire product"
      tone="danger"
      onConfirm={(reason) => retire.mutateAsync({ params: { id: String(product.id) }, body: { reason } })}
    />
  );
}

/** Issue 12: upgrade prices and their provider price ids, credit packs and redeem products; every change asks why. */
export function CataloguePage() {
  const prices = useUpgradePrices();
  const packs = useCreditPacks();
  const products = useRedeemProducts();
  return (
    <>
      <StaffPageHeader title="Catalogue" description="What customers can buy, and for how much." />
      <Section title="Upgrade prices" query={prices}>
        <Table caption="Upgrade prices" headers={['Path', 'Price', 'Provider price id', 'Actions']}>
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
        </Table>
      </Section>
      <Section title="Credit packs" query={packs} actions={<NewPack />}>
        <Table caption="Credit packs" headers={['Name', 'Credits', 'Price', 'Provider price id', 'Status', 'Actions']}>
          {packs.data?.packs.map((pack) => (
            <tr key={pack.id}>
              <td className={cell}>{pack.name}</td>
              <td className={cell}>{pack.credits}</td>
              <td className={cell}>{pack.price}</td>
              <td className={`${cell} font-mono text-xs`}>{pack.priceId ?? '—'}</td>
              <td className={cell}>
                <Badge>{pack.active ? 'on sale' : 'retired'}</Badge>
              </td>
              <td className={cell}>
                <EditPack pack={pack} />
              </td>
            </tr>
          ))}
        </Table>
      </Section>
      <Section title="Redeem products" query={products} actions={<NewProduct />}>
        <Table caption="Redeem products" headers={['Name', 'Grants', 'Cost', 'Status', 'Actions']}>
          {products.data?.redeem_products.map((product) => (
            <tr key={product.id}>
              <td className={cell}>
                <div>{product.name}</div>
                <div className="text-xs text-slate-500">{product.description}</div>
              </td>
              <td className={cell}>
                {product.grant_type}: {product.grant_value}
              </td>
              <td className={cell}>{product.cost_credits} credits</td>
              <td className={cell}>
                <Badge>{product.active ? 'offered' : 'retired'}</Badge>
              </td>
              <td className={`${cell} space-x-2 whitespace-nowrap`}>
                <EditProduct product={product} />
                {product.active ? <RetireProduct product={product} /> : null}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  );
}
