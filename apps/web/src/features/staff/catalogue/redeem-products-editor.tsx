import { zodResolver } from '@hookform/resolvers/zod';
import { staffCreateRedeemProduct, type StaffRedeemProduct } from '@keyport/shared/contracts/credits';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { z } from 'zod/mini';
import { Badge } from '../../../components/ui/badge';
import { Field } from '../../../components/ui/field';
import { ConfirmAction } from '../components/confirm-action';
import { useRedeemProducts } from './api/list-redeem-products';
import { useRetireRedeemProduct } from './api/retire-redeem-product';
import { useCreateRedeemProduct, useUpdateRedeemProduct } from './api/save-redeem-product';
import { CatalogueSection, CatalogueTable, cell } from './components/catalogue-section';
import { wholeNumberText } from './components/text-fields';

/** A redeem product as `POST`/`PUT /staff/redeem-products` take it (the reason aside), from the form's text. */
const product = staffCreateRedeemProduct.body.shape;
const ProductFormSchema = z.object({
  name: product.name,
  description: product.description,
  grant_type: product.grant_type,
  grant_value: product.grant_value,
  cost_credits: wholeNumberText(product.cost_credits),
});
type ProductForm = UseFormReturn<z.input<typeof ProductFormSchema>, unknown, z.output<typeof ProductFormSchema>>;

const NEW_PRODUCT: z.input<typeof ProductFormSchema> = {
  name: '',
  description: '',
  grant_type: 'license_level',
  grant_value: 'LITE',
  cost_credits: '1',
};

function ProductFields({ form }: { form: ProductForm }) {
  const { errors } = form.formState;
  return (
    <>
      <Field label="Name" {...form.register('name')} error={errors.name?.message} />
      <Field label="Description" {...form.register('description')} error={errors.description?.message} />
      <Field
        label="Grant type"
        hint="license_level grants a license of the tier in Grant value"
        {...form.register('grant_type')}
        error={errors.grant_type?.message}
      />
      <Field label="Grant value" {...form.register('grant_value')} error={errors.grant_value?.message} />
      <Field
        label="Cost (credits)"
        type="number"
        min={1}
        {...form.register('cost_credits')}
        error={errors.cost_credits?.message}
      />
    </>
  );
}

function NewProduct() {
  const create = useCreateRedeemProduct();
  const form = useForm({ resolver: zodResolver(ProductFormSchema), defaultValues: NEW_PRODUCT });
  return (
    <ConfirmAction
      triggerLabel="New redeem product"
      title="New redeem product"
      description="Customers can spend credits on it at once."
      confirmLabel="Create product"
      checkFields={() => form.trigger()}
      onConfirm={async (reason) => {
        await create.mutateAsync({ body: { ...ProductFormSchema.parse(form.getValues()), reason } });
        form.reset();
      }}
    >
      <ProductFields form={form} />
    </ConfirmAction>
  );
}

function EditProduct({ product: current }: { product: StaffRedeemProduct }) {
  const update = useUpdateRedeemProduct();
  const form = useForm({
    resolver: zodResolver(ProductFormSchema),
    values: {
      name: current.name,
      description: current.description,
      grant_type: current.grant_type,
      grant_value: current.grant_value,
      cost_credits: String(current.cost_credits),
    },
    resetOptions: { keepDirtyValues: true },
  });
  return (
    <ConfirmAction
      triggerLabel="Edit"
      title={`Edit ${current.name}`}
      description="Past redemptions keep what they cost."
      confirmLabel="Save product"
      checkFields={() => form.trigger()}
      onConfirm={(reason) =>
        update.mutateAsync({
          params: { id: String(current.id) },
          body: { ...ProductFormSchema.parse(form.getValues()), active: current.active, reason },
        })
      }
    >
      <ProductFields form={form} />
    </ConfirmAction>
  );
}

function RetireProduct({ product: current }: { product: StaffRedeemProduct }) {
  const retire = useRetireRedeemProduct();
  return (
    <ConfirmAction
      triggerLabel="Retire"
      title={`Retire ${current.name}?`}
      description="It is no longer offered to customers; past redemptions keep referring to it."
      confirmLabel="Retire product"
      tone="danger"
      onConfirm={(reason) => retire.mutateAsync({ params: { id: String(current.id) }, body: { reason } })}
    />
  );
}

/** What customers can spend credits on (issue 11); retiring keeps past redemptions' product. */
export function RedeemProductsEditor() {
  const products = useRedeemProducts();
  return (
    <CatalogueSection title="Redeem products" query={products} actions={<NewProduct />}>
      <CatalogueTable caption="Redeem products" headers={['Name', 'Grants', 'Cost', 'Status', 'Actions']}>
        {products.data?.redeem_products.map((item) => (
          <tr key={item.id}>
            <td className={cell}>
              <div>{item.name}</div>
              <div className="text-xs text-slate-500">{item.description}</div>
            </td>
            <td className={cell}>
              {item.grant_type}: {item.grant_value}
            </td>
            <td className={cell}>{item.cost_credits} credits</td>
            <td className={cell}>
              <Badge>{item.active ? 'offered' : 'retired'}</Badge>
            </td>
            <td className={`${cell} space-x-2 whitespace-nowrap`}>
              <EditProduct product={item} />
              {item.active ? <RetireProduct product={item} /> : null}
            </td>
          </tr>
        ))}
      </CatalogueTable>
    </CatalogueSection>
  );
}
