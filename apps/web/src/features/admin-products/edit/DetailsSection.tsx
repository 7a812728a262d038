import type { Product } from '@store/shared';
import { useWatch } from 'react-hook-form';
import { Field } from '#web/components/Field.tsx';
import { CategoryPicker } from './CategoryPicker.tsx';
import { asEdit, useEditForm } from './form-values.ts';

/** Name, buy link, price and stock, shipping method, brand and category. */
export function DetailsSection({ product }: { product: Product }) {
  const { register, control, setValue, formState } = useEditForm();
  const { errors } = formState;
  const category = useWatch({ control, name: 'category' });
  return (
    <section className="col-12 col-lg-6" aria-labelledby="details-heading">
      <h2 id="details-heading" className="h5">
        Details
      </h2>
      <Field id="product-name" label="Name" registration={register('name')} error={errors.name?.message} />
      <Field
        id="product-link"
        label="Buy Link"
        type="url"
        inputMode="url"
        placeholder="https://"
        registration={register('purchaseLink')}
        error={errors.purchaseLink?.message}
      />
      <div className="row g-2">
        <Field
          className="col-6 mb-3"
          id="product-price"
          label="Price"
          inputMode="decimal"
          registration={register('price')}
          error={errors.price?.message}
        />
        <Field
          className="col-6 mb-3"
          id="product-stock"
          label="Count In Stock"
          inputMode="numeric"
          registration={register('countInStock')}
          error={errors.countInStock?.message}
        />
      </div>
      <Field
        id="product-shipping"
        label="Shipping Method"
        registration={register('shippingMethod')}
        error={errors.shippingMethod?.message}
      />
      <Field id="product-brand" label="Brand" registration={register('brand')} error={errors.brand?.message} />
      <CategoryPicker
        value={category}
        initialId={product.categoryId ?? ''}
        currentName={product.category}
        onChange={(id) => setValue('category', id, asEdit)}
        error={errors.category?.message}
      />
    </section>
  );
}
