import type { Product } from '@store/shared';
import { useWatch, type UseFieldArrayReturn } from 'react-hook-form';
import { Field } from '#web/components/Field.tsx';
import { useEditForm, type EditValues } from './form-values.ts';
import { GalleryListField } from './GalleryListField.tsx';
import type { GalleryTarget } from './GalleryModal.tsx';
import { ImageUpload } from './ImageUpload.tsx';
import { MainImageField } from './MainImageField.tsx';

/** The gallery folder and its uploads, the main image, the gallery list and the video. */
export function ImagesSection({
  productId,
  galleryList,
  folderError,
  onFolderEdit,
  onOpenGallery,
  onAttached,
}: {
  productId: string;
  galleryList: UseFieldArrayReturn<EditValues, 'imageB'>;
  /** Uploaded files joined the stored product: the form shows them too. */
  onAttached: (srcs: string[], product: Product | undefined) => void;
  /** Why the gallery cannot open for the folder as typed (null when it can). */
  folderError: string | null;
  onFolderEdit: () => void;
  onOpenGallery: (target: GalleryTarget) => void;
}) {
  const { register, control, formState } = useEditForm();
  const { errors } = formState;
  const folder = useWatch({ control, name: 'imageFolderName' });
  const browse = () => onOpenGallery({ kind: 'browse' });
  return (
    <section className="col-12 col-lg-6" aria-labelledby="images-heading">
      <h2 id="images-heading" className="h5">
        Images and Video
      </h2>
      <Field
        id="product-folder"
        label="Image Gallery Folder Name"
        registration={register('imageFolderName', { onChange: onFolderEdit })}
        error={errors.imageFolderName?.message ?? folderError ?? undefined}
        hint="Letters, digits, hyphens and underscores; uploads go to this folder (named after the product unless you change it)."
      />
      <ImageUpload folder={folder} productId={productId} onOpenGallery={browse} onAttached={onAttached} />
      <button type="button" className="btn btn-outline-primary btn-sm mb-3" onClick={browse}>
        Browse Gallery
      </button>
      <MainImageField onChoose={() => onOpenGallery({ kind: 'main' })} />
      <GalleryListField
        images={galleryList.fields}
        onRemove={galleryList.remove}
        onMove={galleryList.move}
        onAdd={browse}
      />
      <Field
        id="product-video"
        label="Video"
        placeholder="https:// or /uploads/…"
        registration={register('video')}
        error={errors.video?.message}
      />
    </section>
  );
}
