import { useState, type DragEvent } from 'react';
import type { FieldArrayWithId } from 'react-hook-form';
import { Message } from '#web/components/Message.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { TrashIcon } from '#web/components/icons.tsx';
import { useEditForm, type EditValues } from './form-values.ts';
import { fileName } from './GalleryModal.tsx';

/**
 * The product's gallery list (imageB): its images in the order the product page shows them, each
 * removable; dragged to another place (or moved with the earlier/later buttons, from the keyboard);
 * more added from the folder.
 */
export function GalleryListField({
  images,
  onRemove,
  onMove,
  onAdd,
}: {
  images: FieldArrayWithId<EditValues, 'imageB'>[];
  onRemove: (index: number) => void;
  onMove: (from: number, to: number) => void;
  onAdd: () => void;
}) {
  const { errors } = useEditForm().formState;
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announce, setAnnounce] = useState('');

  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= images.length) return;
    onMove(from, to);
    setAnnounce(`${fileName(images[from]!.src)} moved to position ${to + 1} of ${images.length}.`);
  };
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const from = dragging ?? Number(e.dataTransfer.getData('text/plain'));
    setDragging(null);
    setOver(null);
    if (Number.isInteger(from)) move(from, to);
  };

  return (
    <>
      <h3 className="h6" id="gallery-list-heading">
        Gallery List ({images.length})
      </h3>
      {typeof errors.imageB?.message === 'string' && <Message variant="danger">{errors.imageB.message}</Message>}
      {images.length === 0 ? (
        <p className="small text-body-secondary">No gallery images. Upload some, or add them from the folder.</p>
      ) : (
        <>
          <p className="small text-body-secondary mb-2" id="gallery-list-help">
            Drag an image to reorder, or use its arrow buttons.
          </p>
          <ul
            className="row row-cols-3 row-cols-sm-4 g-2 list-unstyled"
            aria-labelledby="gallery-list-heading"
            aria-describedby="gallery-list-help"
          >
            {images.map((f, i) => {
              const name = fileName(f.src);
              return (
                <li
                  key={f.id}
                  className="col"
                  data-testid="gallery-list-item"
                  data-src={f.src}
                  draggable
                  onDragStart={(e) => {
                    setDragging(i);
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', String(i));
                  }}
                  onDragOver={(e) => {
                    e.preventDefault();
                    e.dataTransfer.dropEffect = 'move';
                    if (over !== i) setOver(i);
                  }}
                  onDragLeave={() => setOver((o) => (o === i ? null : o))}
                  onDrop={(e) => drop(e, i)}
                  onDragEnd={() => {
                    setDragging(null);
                    setOver(null);
                  }}
                  style={{ cursor: 'grab', opacity: dragging === i ? 0.5 : 1 }}
                >
                  <div className={`rounded${over === i && dragging !== i ? ' border border-primary border-2' : ''}`}>
                    <ProductImage
                      src={f.src}
                      alt={`${name} (position ${i + 1})`}
                      width={160}
                      height={120}
                      sizes="120px"
                      className="img-fluid rounded border"
                      draggable={false}
                    />
                  </div>
                  <div className="d-flex flex-wrap align-items-center gap-1">
                    <button
                      type="button"
                      className="btn btn-link btn-sm p-0"
                      onClick={() => move(i, i - 1)}
                      disabled={i === 0}
                      aria-label={`Move ${name} earlier`}
                    >
                      <span aria-hidden="true">←</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-link btn-sm p-0"
                      onClick={() => move(i, i + 1)}
                      disabled={i === images.length - 1}
                      aria-label={`Move ${name} later`}
                    >
                      <span aria-hidden="true">→</span>
                    </button>
                    <button
                      type="button"
                      className="btn btn-link btn-sm text-danger-emphasis p-0"
                      onClick={() => onRemove(i)}
                    >
                      <TrashIcon size={14} /> Remove<span className="visually-hidden"> {name}</span>
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <div className="visually-hidden" aria-live="polite">
        {announce}
      </div>
      <button type="button" className="btn btn-outline-primary btn-sm mb-3" onClick={onAdd}>
        Add From Gallery
      </button>
    </>
  );
}
