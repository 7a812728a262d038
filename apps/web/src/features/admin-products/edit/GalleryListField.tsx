import type { FieldArrayWithId } from 'react-hook-form';
import { Message } from '#web/components/Message.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { TrashIcon } from '#web/components/icons.tsx';
import { useEditForm, type EditValues } from './form-values.ts';
import { fileName } from './GalleryModal.tsx';

/** The product's gallery list (imageB): its images, each removable, and more added from the folder. */
export function GalleryListField({
  images,
  onRemove,
  onAdd,
}: {
  images: FieldArrayWithId<EditValues, 'imageB'>[];
  onRemove: (index: number) => void;
  onAdd: () => void;
}) {
  const { errors } = useEditForm().formState;
  return (
    <>
      <h3 className="h6" id="gallery-list-heading">
        Gallery List ({images.length})
      </h3>
      {typeof errors.imageB?.message === 'string' && <Message variant="danger">{errors.imageB.message}</Message>}
      {images.length === 0 ? (
        <p className="small text-body-secondary">No gallery images. Add them from the folder.</p>
      ) : (
        <ul className="row row-cols-3 row-cols-sm-4 g-2 list-unstyled" aria-labelledby="gallery-list-heading">
          {images.map((f, i) => (
            <li key={f.id} className="col" data-testid="gallery-list-item">
              <ProductImage
                src={f.src}
                alt={fileName(f.src)}
                width={160}
                height={120}
                sizes="120px"
                className="img-fluid rounded border"
              />
              <button
                type="button"
                className="btn btn-link btn-sm text-danger-emphasis p-0"
                onClick={() => onRemove(i)}
              >
                <TrashIcon size={14} /> Remove<span className="visually-hidden"> {fileName(f.src)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn-outline-primary btn-sm mb-3" onClick={onAdd}>
        Add From Gallery
      </button>
    </>
  );
}
