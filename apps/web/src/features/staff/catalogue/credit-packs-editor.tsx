import { zodResolver } from '@hookform/resolvers/zod';
import { staffCreateCreditPack, type StaffCreditPack } from '@keyport/shared/contracts/credits';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod/mini';
import { Badge } from '../../../components/ui/badge';
import { Field } from '../../../components/ui/field';
import { ConfirmAction } from '../components/confirm-action';
import { useCreditPacks } from './api/list-credit-packs';
import { useCreateCreditPack, useUpdateCreditPack } from './api/save-credit-pack';
import { CatalogueSection, CatalogueTable, cell } from './components/catalogue-section';
import { optionalText, usdText, wholeNumberText } from './components/text-fields';

/** A credit pack as `POST`/`PUT /staff/credit-packs` take it (the reason aside), from the form's text. */
const pack = staffCreateCreditPack.body.shape;
const PackFormSchema = z.object({
  name: pack.name,
  credits: wholeNumberText(pack.credits),
  amount_cents: usdText(pack.amount_cents),
  provider_price_id: optionalText(pack.provider_price_id),
  active: z.boolean(),
});
type PackForm = UseFormReturn<z.input<typeof PackFormSchema>, unknown, z.output<typeof PackFormSchema>>;

const NEW_PACK: z.input<typeof PackFormSchema> = {
  name: '',
  credits: '10',
  amount_cents: '',
  provider_price_id: '',
  active: true,
};

function PackFields({ form }: { form: PackForm }) {
  const { errors } = form.formState;
  return (
    <>
      <Field label="Name" {...form.register('name')} error={errors.name?.message} />
      <Field label="Credits" type="number" min={1} {...form.register('credits')} error={errors.credits?.message} />
      <Field
        label="Price (USD)"
        inputMode="decimal"
        {...form.register('amount_cents')}
        error={errors.amount_cents?.message}
      />
      <Field
        label="Provider price id"
        {...form.register('provider_price_id')}
        error={errors.provider_price_id?.message}
      />
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" {...form.register('active')} />
        On sale
      </label>
    </>
  );
}

function NewPack() {
  const create = useCreateCreditPack();
  const form = useForm({ resolver: zodResolver(PackFormSchema), defaultValues: NEW_PACK });
  return (
    <ConfirmAction
      triggerLabel="New credit pack"
      title="New credit pack"
      description="Team members can buy it as soon as it is on sale (by card once it has a provider price id)."
      confirmLabel="Create pack"
      checkFields={() => form.trigger()}
      onConfirm={async (reason) => {
        await create.mutateAsync({ body: { ...PackFormSchema.parse(form.getValues()), reason } });
        form.reset();
      }}
    >
      <PackFields form={form} />
    </ConfirmAction>
  );
}

function EditPack({ pack: current }: { pack: StaffCreditPack }) {
  const update = useUpdateCreditPack();
  const form = useForm({
    resolver: zodResolver(PackFormSchema),
    values: {
      name: current.name,
      credits: String(current.credits),
      amount_cents: (current.price_cents / 100).toFixed(2),
      provider_price_id: current.priceId ?? '',
      active: current.active,
    },
    resetOptions: { keepDirtyValues: true },
  });
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Edit ${current.name}`}
      description="Changes apply to new checkouts; orders already started keep what they were quoted."
      confirmLabel="Save pack"
      checkFields={() => form.trigger()}
      onConfirm={(reason) =>
        update.mutateAsync({
          params: { id: String(current.id) },
          body: { ...PackFormSchema.parse(form.getValues()), reason },
        })
      }
    >
      <PackFields form={form} />
    </ConfirmAction>
  );
}

/** Credit packs team members buy (issue 11, ADR 023). */
export function CreditPacksEditor() {
  const packs = useCreditPacks();
  return (
    <CatalogueSection title="Credit packs" query={packs} actions={<NewPack />}>
      <CatalogueTable
        caption="Credit packs"
        headers={['Name', 'Credits', 'Price', 'Provider price id', 'Status', 'Actions']}
      >
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
      </CatalogueTable>
    </CatalogueSection>
  );
}
