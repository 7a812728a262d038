import { useWatch, type UseFieldArrayReturn } from 'react-hook-form';
import { Field } from '#web/components/Field.tsx';
import { useEditForm, type EditValues } from './form-values.ts';
import { GalleryListField } from './GalleryListField.tsx';
import type { GalleryTarget } from './GalleryModal.tsx';
import { ImageUpload } from './ImageUpload.tsx';
import { MainImageField } from './MainImageField.tsx';

/** The gallery folder and its uploads, the main image, the gallery list and the video. */
export function ImagesSection({
  galleryList,
  folderError,
  onFolderEdit,
  onOpenGallery,
}: {
  galleryList: UseFieldArrayReturn<EditValues, 'imageB'>;
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
        hint="Letters, digits, hyphens and underscores; uploads go to this folder."
      />
      <ImageUpload folder={folder} onOpenGallery={browse} />
      <button type="button" className="btn btn-outline-primary btn-sm mb-3" onClick={browse}>
        Browse Gallery
      </button>
      <MainImageField onChoose={() => onOpenGallery({ kind: 'main' })} />
      <GalleryListField images={galleryList.fields} onRemove={galleryList.remove} onAdd={browse} />
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
