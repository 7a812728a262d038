import type { Product } from '@store/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { useDeleteImages, useGallery } from './api.ts';

/** What the gallery was opened for: browsing (main image or gallery list), the main image, or one variant. */
export type GalleryTarget = { kind: 'browse' } | { kind: 'main' } | { kind: 'variant'; index: number; name: string };

export const fileName = (src: string) => src.slice(src.lastIndexOf('/') + 1);

/**
 * The server gallery browser: the folder's images to pick from, and a delete mode with checkboxes
 * and a bulk delete (the files go, then the product stops pointing at them).
 */
export function GalleryModal({
  target,
  folder,
  product,
  mainImage,
  inList,
  onHide,
  onMain,
  onAddToList,
  onVariant,
  onDeleted,
}: {
  target: GalleryTarget | null;
  folder: string;
  product: Product;
  /** The main image as the form holds it now. */
  mainImage: string;
  inList: (src: string) => boolean;
  onHide: () => void;
  onMain: (src: string) => void;
  onAddToList: (srcs: string[]) => void;
  onVariant: (index: number, src: string) => void;
  onDeleted: (deleted: string[]) => void;
}) {
  const gallery = useGallery(folder, target !== null);
  const remove = useDeleteImages(product);
  const [deleteMode, setDeleteMode] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const images = gallery.data ?? [];

  const hide = () => {
    setDeleteMode(false);
    setSelected(new Set());
    setDone(null);
    remove.reset();
    onHide();
  };
  const toggle = (src: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(src)) next.add(src);
      return next;
    });
  const bulkDelete = () => {
    const srcs = [...selected];
    setDone(null);
    remove.mutate(
      { folder, srcs },
      {
        onSuccess: ({ deleted }) => {
          setConfirming(false);
          setSelected(new Set());
          setDone(`Deleted ${deleted.length} image(s).`);
          onDeleted(deleted);
        },
      },
    );
  };
  const notListed = images.map((i) => i.src).filter((src) => !inList(src));

  return (
    <Modal
      show={target !== null}
      onHide={hide}
      size="xl"
      fullscreen="sm-down"
      className="product-edit-modal"
      aria-labelledby="gallery-title"
    >
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="gallery-title" as="h2" className="h5">
          {target?.kind === 'variant'
            ? `Choose an image for ${target.name || 'the variant'}`
            : target?.kind === 'main'
              ? 'Choose the main image'
              : 'Image Gallery'}{' '}
          <small className="text-body-secondary">({folder})</small>
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <div className="d-flex flex-wrap gap-3 align-items-center mb-3">
          <Form.Check
            type="switch"
            id="gallery-delete-mode"
            label="Delete mode"
            checked={deleteMode}
            onChange={(e) => {
              setDeleteMode(e.target.checked);
              setSelected(new Set());
            }}
          />
          {!deleteMode && target?.kind === 'browse' && notListed.length > 0 && (
            <Button size="sm" variant="outline-primary" onClick={() => onAddToList(notListed)}>
              Add all to gallery list
            </Button>
          )}
          {deleteMode && images.length > 0 && (
            <Button
              size="sm"
              variant="outline-secondary"
              onClick={() =>
                setSelected(selected.size === images.length ? new Set() : new Set(images.map((i) => i.src)))
              }
            >
              {selected.size === images.length ? 'Select none' : 'Select all'}
            </Button>
          )}
        </div>
        <div aria-live="polite">
          {remove.error && <Message variant="danger">{remove.error.message}</Message>}
          {done && <Message variant="success">{done}</Message>}
        </div>
        {gallery.isPending && gallery.fetchStatus !== 'idle' ? (
          <Loader label="Loading images…" />
        ) : gallery.error ? (
          <Message variant="danger">{gallery.error.message}</Message>
        ) : images.length === 0 ? (
          <Message>No images in this folder yet. Upload some first.</Message>
        ) : (
          <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-4 g-3 list-unstyled mb-0" aria-label="Folder images">
            {images.map(({ src }) => {
              const name = fileName(src);
              const checked = selected.has(src);
              return (
                <li key={src} className="col" data-testid="gallery-item">
                  <div className={`card h-100${checked ? ' border-danger border-2' : ''}`}>
                    <ProductImage
                      src={src}
                      alt={name}
                      width={320}
                      height={240}
                      sizes="(max-width: 576px) 50vw, 240px"
                      className="card-img-top object-fit-contain bg-body-tertiary"
                      style={{ aspectRatio: '4 / 3', height: 'auto' }}
                    />
                    <div className="card-body p-2 d-grid gap-1">
                      <div className="small text-truncate" title={name}>
                        {name}
                      </div>
                      {deleteMode ? (
                        <Form.Check
                          id={`gallery-select-${name}`}
                          label={
                            <>
                              Select<span className="visually-hidden"> {name}</span>
                            </>
                          }
                          checked={checked}
                          onChange={() => toggle(src)}
                        />
                      ) : (
                        <ItemActions
                          target={target}
                          src={src}
                          name={name}
                          listed={inList(src)}
                          isMain={mainImage === src}
                          onMain={onMain}
                          onAddToList={onAddToList}
                          onVariant={onVariant}
                          onDone={hide}
                        />
                      )}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </Modal.Body>
      <Modal.Footer>
        {deleteMode && (
          <Button
            variant="danger"
            disabled={selected.size === 0 || remove.isPending}
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            {remove.isPending ? 'Deleting…' : `Delete selected (${selected.size})`}
          </Button>
        )}
        <Button variant="secondary" onClick={hide}>
          Close
        </Button>
      </Modal.Footer>
      <ConfirmDialog
        show={confirming}
        title={`Delete ${selected.size} image${selected.size === 1 ? '' : 's'}?`}
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.error?.message}
        onConfirm={bulkDelete}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Delete {selected.size} image{selected.size === 1 ? '' : 's'} from the folder {folder}? This cannot be undone;
          the product stops showing {selected.size === 1 ? 'it' : 'them'}.
        </p>
        <ul className="small text-break mb-0">
          {[...selected].slice(0, 10).map((src) => (
            <li key={src}>{fileName(src)}</li>
          ))}
          {selected.size > 10 && <li>and {selected.size - 10} more</li>}
        </ul>
      </ConfirmDialog>
    </Modal>
  );
}

function ItemActions({
  target,
  src,
  name,
  listed,
  isMain,
  onMain,
  onAddToList,
  onVariant,
  onDone,
}: {
  target: GalleryTarget | null;
  src: string;
  name: string;
  listed: boolean;
  isMain: boolean;
  onMain: (src: string) => void;
  onAddToList: (srcs: string[]) => void;
  onVariant: (index: number, src: string) => void;
  onDone: () => void;
}) {
  const pick = (fn: () => void) => () => {
    fn();
    onDone();
  };
  const hidden = <span className="visually-hidden"> {name}</span>;
  if (target?.kind === 'variant')
    return (
      <Button size="sm" onClick={pick(() => onVariant(target.index, src))}>
        Use for {target.name || 'variant'}
        {hidden}
      </Button>
    );
  return (
    <>
      <Button
        size="sm"
        variant={target?.kind === 'main' ? 'primary' : 'outline-primary'}
        aria-pressed={target?.kind === 'main' ? undefined : isMain}
        onClick={target?.kind === 'main' ? pick(() => onMain(src)) : () => onMain(src)}
      >
        Main image
        {hidden}
      </Button>
      {target?.kind !== 'main' && (
        <Button size="sm" variant="outline-secondary" disabled={listed} onClick={() => onAddToList([src])}>
          {listed ? 'In gallery list' : 'Add to gallery list'}
          {hidden}
        </Button>
      )}
    </>
  );
}
