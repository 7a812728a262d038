import { useFieldArray, useWatch } from 'react-hook-form';
import { TrashIcon } from '#web/components/icons.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { Field } from '#web/components/Field.tsx';
import { emptyVariant, useEditForm } from './form-values.ts';

/**
 * Colour variants: a name, an image from the gallery, an optional price over the product's, an optional
 * stock of its own (empty: the variant sells from the product's stock) and an optional SKU.
 */
export function VariantsField({ onChooseImage }: { onChooseImage: (index: number, name: string) => void }) {
  const { control, register, setValue, formState } = useEditForm();
  const { fields, append, remove } = useFieldArray({ control, name: 'colorsVariants' });
  const variants = useWatch({ control, name: 'colorsVariants' });
  const [productPrice, productStock] = useWatch({ control, name: ['price', 'countInStock'] });
  const errors = formState.errors.colorsVariants;

  return (
    <fieldset className="mb-4">
      <legend className="h5">Colour Variants</legend>
      {typeof errors?.message === 'string' && <div className="alert alert-danger py-2">{errors.message}</div>}
      {fields.length === 0 && <p className="text-body-secondary small">No colour variants.</p>}
      <ol className="list-unstyled mb-2">
        {fields.map((field, i) => {
          const v = variants?.[i];
          const err = errors?.[i];
          const label = v?.name?.trim() || `Variant ${i + 1}`;
          return (
            <li key={field.id} className="border rounded p-2 mb-2" data-testid="variant-row">
              <div className="row g-2 align-items-start">
                <div className="col-4 col-sm-3 col-md-2">
                  <ProductImage
                    src={v?.src ?? ''}
                    alt={`${label} image`}
                    width={160}
                    height={120}
                    sizes="120px"
                    className="img-fluid rounded border"
                  />
                </div>
                <div className="col-8 col-sm-9 col-md-10">
                  <div className="row g-2">
                    <Field
                      className="col-12 col-md-6 col-xl-3"
                      id={`variant-${i}-name`}
                      label={`Variant ${i + 1} name`}
                      registration={register(`colorsVariants.${i}.name`)}
                      error={err?.name?.message}
                    />
                    <Field
                      className="col-12 col-sm-6 col-xl-3"
                      id={`variant-${i}-price`}
                      label={`Variant ${i + 1} price (optional)`}
                      inputMode="decimal"
                      placeholder={productPrice ? `Product price: ${productPrice}` : 'Product price'}
                      registration={register(`colorsVariants.${i}.price`)}
                      error={err?.price?.message}
                    />
                    <Field
                      className="col-12 col-sm-6 col-xl-3"
                      id={`variant-${i}-stock`}
                      label={`Variant ${i + 1} stock`}
                      inputMode="numeric"
                      autoComplete="off"
                      placeholder={productStock?.trim() ? `Product stock: ${productStock.trim()}` : 'Product stock'}
                      hint="Empty: uses the product's stock"
                      registration={register(`colorsVariants.${i}.countInStock`)}
                      error={err?.countInStock?.message}
                    />
                    <Field
                      className="col-12 col-sm-6 col-xl-3"
                      id={`variant-${i}-sku`}
                      label={`Variant ${i + 1} SKU`}
                      autoComplete="off"
                      autoCapitalize="characters"
                      spellCheck={false}
                      placeholder="None"
                      registration={register(`colorsVariants.${i}.sku`)}
                      error={err?.sku?.message}
                    />
                  </div>
                  <div className="d-flex flex-wrap gap-2 mt-2">
                    <button
                      type="button"
                      className="btn btn-outline-primary btn-sm"
                      onClick={() => onChooseImage(i, v?.name?.trim() ?? '')}
                    >
                      Choose image<span className="visually-hidden"> for {label}</span>
                    </button>
                    {v?.src && (
                      <button
                        type="button"
                        className="btn btn-outline-secondary btn-sm"
                        onClick={() => setValue(`colorsVariants.${i}.src`, '', { shouldDirty: true })}
                      >
                        Clear image<span className="visually-hidden"> of {label}</span>
                      </button>
                    )}
                    <button type="button" className="btn btn-outline-danger btn-sm ms-auto" onClick={() => remove(i)}>
                      <TrashIcon size={14} /> Remove<span className="visually-hidden"> {label}</span>
                    </button>
                  </div>
                  {err?.src && <div className="invalid-feedback d-block">{err.src.message}</div>}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="btn btn-outline-primary btn-sm"
        onClick={() => append(emptyVariant(), { shouldFocus: true })}
      >
        Add Variant
      </button>
    </fieldset>
  );
}
