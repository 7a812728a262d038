import { zodResolver } from '@hookform/resolvers/zod';
import {
  PRODUCT_MESSAGES,
  TOAST_MS,
  UPLOAD_MESSAGES,
  productUpdateSchema,
  type Product,
  type ProductUpdateInput,
} from '@store/shared';
import { lazy, Suspense, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Loader } from '../../../components/Loader.tsx';
import { Message } from '../../../components/Message.tsx';
import { ProductImage } from '../../../components/ProductImage.tsx';
import { TimedToast, type ToastContent } from '../../../components/TimedToast.tsx';
import { TrashIcon } from '../../../components/icons.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { Field } from '../../account/components/form.tsx';
import { isFolderName, useAdminProduct, useUpdateProduct } from './api.ts';
import { CategoryPicker } from './CategoryPicker.tsx';
import { toBody, toValues, type EditValues } from './form-values.ts';
import { fileName, GalleryModal, type GalleryTarget } from './GalleryModal.tsx';
import { ImageUpload } from './ImageUpload.tsx';
import { VariantsField } from './VariantsField.tsx';

// the editor (TipTap and ProseMirror) is a chunk of its own, fetched only when this page shows it
const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'));

export default function ProductEditPage() {
  useDocumentTitle('Edit Product');
  const { id = '' } = useParams();
  const { data, error, isPending } = useAdminProduct(id);
  return (
    <div className="product-edit">
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Link to="/admin/productlist" className="btn btn-outline-secondary btn-sm">
          Go Back
        </Link>
        {data && (
          <Link to={`/product/${data.slug}`} className="btn btn-outline-primary btn-sm">
            View Product
          </Link>
        )}
      </div>
      <h1 className="h3 mb-4">Edit Product</h1>
      {isPending ? (
        <Loader />
      ) : error ? (
        <Message variant="danger">{error.message}</Message>
      ) : (
        <EditForm key={data._id} product={data} />
      )}
    </div>
  );
}

// the shared schema reads the form's text ('12.50', '') into the PUT body's numbers
const resolver = zodResolver(productUpdateSchema) as unknown as Resolver<EditValues, unknown, ProductUpdateInput>;

function EditForm({ product }: { product: Product }) {
  const update = useUpdateProduct(product._id);
  const [toast, setToast] = useState<ToastContent | null>(null);
  const [gallery, setGallery] = useState<GalleryTarget | null>(null);
  const [folderMsg, setFolderMsg] = useState<string | null>(null);
  const form = useForm<EditValues, unknown, ProductUpdateInput>({
    resolver,
    mode: 'onTouched',
    defaultValues: toValues(product),
  });
  const {
    register,
    handleSubmit,
    control,
    setValue,
    getValues,
    reset,
    formState: { errors },
  } = form;
  const list = useFieldArray({ control, name: 'imageB' });
  const [folder, image, description, category] = useWatch({
    control,
    name: ['imageFolderName', 'image', 'description', 'category'],
  });
  const dirty = { shouldDirty: true, shouldValidate: true } as const;

  const onSubmit = handleSubmit((values) =>
    update.mutate(toBody(product._id, values), {
      onSuccess: (saved) => {
        reset(toValues(saved));
        setToast({ title: 'Edit Product', body: PRODUCT_MESSAGES.saved, variant: 'success' });
      },
    }),
  );

  const openGallery = (target: GalleryTarget) => {
    const f = folder.trim();
    const msg = !f ? UPLOAD_MESSAGES.folderRequired : isFolderName(f) ? null : PRODUCT_MESSAGES.folder;
    setFolderMsg(msg);
    if (!msg) setGallery(target);
  };
  const inList = (src: string) => getValues('imageB').some((i) => i.src === src);
  const addToList = (srcs: string[]) => {
    for (const src of srcs) if (!inList(src)) list.append({ src }, { shouldFocus: false });
  };
  // what the bulk delete removed from the folder goes from the form too (the server's copy is updated already)
  const onDeleted = (deleted: string[]) => {
    const gone = new Set(deleted);
    if (gone.has(getValues('image'))) setValue('image', '', dirty);
    list.replace(getValues('imageB').filter((i) => !gone.has(i.src)));
    getValues('colorsVariants').forEach((v, i) => {
      if (gone.has(v.src)) setValue(`colorsVariants.${i}.src`, '', dirty);
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit product">
      <div className="row g-4">
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
            onChange={(id) => setValue('category', id, dirty)}
            error={errors.category?.message}
          />
        </section>

        <section className="col-12 col-lg-6" aria-labelledby="images-heading">
          <h2 id="images-heading" className="h5">
            Images and Video
          </h2>
          <Field
            id="product-folder"
            label="Image Gallery Folder Name"
            registration={register('imageFolderName', { onChange: () => setFolderMsg(null) })}
            error={errors.imageFolderName?.message ?? folderMsg ?? undefined}
            hint="Letters, digits, hyphens and underscores; uploads go to this folder."
          />
          <ImageUpload folder={folder} onOpenGallery={() => openGallery({ kind: 'browse' })} />
          <button
            type="button"
            className="btn btn-outline-primary btn-sm mb-3"
            onClick={() => openGallery({ kind: 'browse' })}
          >
            Browse Gallery
          </button>

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
                <button
                  type="button"
                  className="btn btn-outline-primary btn-sm"
                  onClick={() => openGallery({ kind: 'main' })}
                >
                  Choose Main Image
                </button>
                {image && (
                  <button
                    type="button"
                    className="btn btn-outline-secondary btn-sm"
                    onClick={() => setValue('image', '', dirty)}
                  >
                    Clear<span className="visually-hidden"> main image</span>
                  </button>
                )}
              </div>
            </div>
          </div>

          <h3 className="h6" id="gallery-list-heading">
            Gallery List ({list.fields.length})
          </h3>
          {typeof errors.imageB?.message === 'string' && <Message variant="danger">{errors.imageB.message}</Message>}
          {list.fields.length === 0 ? (
            <p className="small text-body-secondary">No gallery images. Add them from the folder.</p>
          ) : (
            <ul className="row row-cols-3 row-cols-sm-4 g-2 list-unstyled" aria-labelledby="gallery-list-heading">
              {list.fields.map((f, i) => (
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
                    onClick={() => list.remove(i)}
                  >
                    <TrashIcon size={14} /> Remove<span className="visually-hidden"> {fileName(f.src)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            className="btn btn-outline-primary btn-sm mb-3"
            onClick={() => openGallery({ kind: 'browse' })}
          >
            Add From Gallery
          </button>
          <Field
            id="product-video"
            label="Video"
            placeholder="https:// or /uploads/…"
            registration={register('video')}
            error={errors.video?.message}
          />
        </section>
      </div>

      <VariantsField form={form} onChooseImage={(index, name) => openGallery({ kind: 'variant', index, name })} />

      <div className="mb-4">
        <div id="description-label" className="form-label">
          Description
        </div>
        <Suspense fallback={<Loader label="Loading the editor…" />}>
          <RichTextEditor
            value={description}
            onChange={(html) => setValue('description', html, { shouldDirty: true })}
            labelId="description-label"
            invalid={Boolean(errors.description)}
            describedBy={errors.description ? 'description-error' : undefined}
          />
        </Suspense>
        {errors.description && (
          <div id="description-error" className="invalid-feedback d-block">
            {errors.description.message}
          </div>
        )}
      </div>

      <div aria-live="assertive">{update.error && <Message variant="danger">{update.error.message}</Message>}</div>
      <button type="submit" className="btn btn-primary" disabled={update.isPending}>
        {update.isPending ? 'Saving…' : 'Save'}
      </button>

      <GalleryModal
        target={gallery}
        folder={folder.trim()}
        product={product}
        mainImage={image}
        inList={inList}
        onHide={() => setGallery(null)}
        onMain={(src) => setValue('image', src, dirty)}
        onAddToList={addToList}
        onVariant={(i, src) => setValue(`colorsVariants.${i}.src`, src, dirty)}
        onDeleted={onDeleted}
      />
      <TimedToast toast={toast} delay={TOAST_MS.productSaved} onClose={() => setToast(null)} />
    </form>
  );
}
