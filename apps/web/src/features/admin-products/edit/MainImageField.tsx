import { useWatch } from 'react-hook-form';
import { Field } from '#web/components/Field.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { asEdit, useEditForm } from './form-values.ts';

/** The main image: a preview, its address, and a choice from the gallery folder. */
export function MainImageField({ onChoose }: { onChoose: () => void }) {
  const { register, control, setValue, formState } = useEditForm();
  const { errors } = formState;
  const image = useWatch({ control, name: 'image' });
  return (
    <div className="d-flex gap-3 align-items-start mb-3">
      <div className="flex-shrink-0" style={{ width: 120 }}>
        <ProductImage
          src={image}
          alt="Main image preview"
          width={160}
          height={120}
          sizes="120px"
          className="img-fluid rounded border"
          data-testid="main-image-preview"
        />
      </div>
      <div className="flex-grow-1" style={{ minWidth: 0 }}>
        <Field
          id="product-image"
          label="Main Image"
          registration={register('image')}
          error={errors.image?.message}
          className="mb-2"
        />
        <div className="d-flex flex-wrap gap-2">
          <button type="button" className="btn btn-outline-primary btn-sm" onClick={onChoose}>
            Choose Main Image
          </button>
          {image && (
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm"
              onClick={() => setValue('image', '', asEdit)}
            >
              Clear<span className="visually-hidden"> main image</span>
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
