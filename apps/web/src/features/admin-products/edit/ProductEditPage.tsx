import { zodResolver } from '@hookform/resolvers/zod';
import {
  PRODUCT_MESSAGES,
  TOAST_MS,
  UPLOAD_MESSAGES,
  productUpdateSchema,
  type Product,
  type ProductStatus,
  type ProductUpdateInput,
} from '@store/shared';
import { useState } from 'react';
import { FormProvider, useFieldArray, useForm, useWatch, type Resolver } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { paths } from '#web/lib/paths.ts';
import { isFolderName, useAdminProduct, useStoreProduct, useUpdateProduct } from './api.ts';
import { DescriptionSection } from './DescriptionSection.tsx';
import { DetailsSection } from './DetailsSection.tsx';
import { asEdit, toBody, toValues, variantOfTakenSku, type EditValues } from './form-values.ts';
import { GalleryModal, type GalleryTarget } from './GalleryModal.tsx';
import { ImagesSection } from './ImagesSection.tsx';
import { VariantsField } from './VariantsField.tsx';
import { failureText } from '#web/lib/api.ts';

export default function ProductEditPage() {
  useDocumentTitle('Edit Product');
  const { id = '' } = useParams();
  const { data, error, isPending } = useAdminProduct(id);
  return (
    <div className="product-edit">
      <div className="d-flex flex-wrap gap-2 mb-3">
        <Link to={paths.adminProducts} className="btn btn-outline-secondary btn-sm">
          Go Back
        </Link>
        {data?.status === 'active' && (
          <Link to={paths.product(data.slug)} className="btn btn-outline-primary btn-sm">
            View Product
          </Link>
        )}
      </div>
      <h1 className="h3 mb-4 d-flex flex-wrap align-items-center gap-2">
        Edit Product
        {data && <StatusBadge status={data.status} />}
      </h1>
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

/** Draft (shoppers do not see it) or Active (in the shop). */
export function StatusBadge({ status }: { status: ProductStatus | undefined }) {
  const draft = status === 'draft';
  return (
    <span
      className={`badge fs-6 ${draft ? 'text-bg-secondary' : 'text-bg-success'}`}
      data-testid="product-status"
      title={draft ? 'Shoppers do not see this product' : 'In the shop'}
    >
      {draft ? 'Draft' : 'Active'}
    </span>
  );
}

// the shared schema reads the form's text ('12.50', '') into the PUT body's numbers
const resolver = zodResolver(productUpdateSchema) as unknown as Resolver<EditValues, unknown, ProductUpdateInput>;

/** One form over the sections; the gallery folder's browser serves the main image, the list and the variants. */
function EditForm({ product }: { product: Product }) {
  const update = useUpdateProduct(product._id);
  const store = useStoreProduct(product._id);
  const [toast, setToast] = useState<ToastContent | null>(null);
  const [gallery, setGallery] = useState<GalleryTarget | null>(null);
  const [folderMsg, setFolderMsg] = useState<string | null>(null);
  const form = useForm<EditValues, unknown, ProductUpdateInput>({
    resolver,
    mode: 'onTouched',
    defaultValues: toValues(product),
  });
  const { handleSubmit, control, setValue, getValues, setError, reset } = form;
  const list = useFieldArray({ control, name: 'imageB' });
  const [folder, image] = useWatch({ control, name: ['imageFolderName', 'image'] });

  // the status the button asked for: 'Publish' and an active product's 'Save' keep it in (or put it in) the shop
  const save = (status: ProductStatus) =>
    handleSubmit((values) =>
      update.mutate(
        { ...toBody(product._id, values), status },
        {
          onSuccess: (saved) => {
            reset(toValues(saved));
            const body =
              status === 'draft'
                ? PRODUCT_MESSAGES.savedDraft
                : product.status === 'draft'
                  ? PRODUCT_MESSAGES.published
                  : PRODUCT_MESSAGES.saved;
            setToast({ title: 'Edit Product', body, variant: 'success' });
          },
          // a SKU another product has: the refusal is shown below, and the variant's SKU field is marked
          onError: (err) => {
            const i = variantOfTakenSku(err.message, getValues('colorsVariants'));
            if (i >= 0)
              setError(
                `colorsVariants.${i}.sku`,
                { type: 'server', message: 'This SKU is taken: choose another' },
                { shouldFocus: true },
              );
          },
        },
      ),
    );
  const draft = product.status === 'draft';

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
  // uploaded files joined the stored product (gallery list, main image if none): the form shows them too
  const onAttached = (srcs: string[], stored: Product | undefined) => {
    addToList(srcs);
    if (!getValues('image') && srcs[0]) setValue('image', stored?.image || srcs[0], asEdit);
    if (stored) store(stored);
  };
  // what the bulk delete removed from the folder goes from the form too (the server's copy is updated already)
  const onDeleted = (deleted: string[]) => {
    const gone = new Set(deleted);
    if (gone.has(getValues('image'))) setValue('image', '', asEdit);
    list.replace(getValues('imageB').filter((i) => !gone.has(i.src)));
    getValues('colorsVariants').forEach((v, i) => {
      if (gone.has(v.src)) setValue(`colorsVariants.${i}.src`, '', asEdit);
    });
  };

  return (
    <FormProvider {...form}>
      <form onSubmit={save('active')} noValidate aria-label="Edit product">
        <div className="row g-4">
          <DetailsSection product={product} />
          <ImagesSection
            productId={product._id}
            onAttached={onAttached}
            galleryList={list}
            folderError={folderMsg}
            onFolderEdit={() => setFolderMsg(null)}
            onOpenGallery={openGallery}
          />
        </div>

        <VariantsField onChooseImage={(index, name) => openGallery({ kind: 'variant', index, name })} />
        <DescriptionSection />

        {!image && (
          <Message variant="warning">
            {draft
              ? 'This product has no main image yet: upload one before publishing, or shoppers see a placeholder.'
              : 'This product is in the shop without a main image: shoppers see a placeholder. Upload one or choose one from the gallery.'}
          </Message>
        )}
        <div aria-live="assertive">
          {update.error && <Message variant="danger">{failureText(update.error, 'Update failed.')}</Message>}
        </div>
        <p className="small text-body-secondary" id="save-help">
          {draft
            ? 'This product is a draft: shoppers do not see it until you publish it. Publishing needs a real name and a price above 0.'
            : 'This product is in the shop. "Save as draft" takes it out until you publish it again.'}
        </p>
        <div className="d-flex flex-wrap gap-2">
          <button type="submit" className="btn btn-primary" disabled={update.isPending} aria-describedby="save-help">
            {update.isPending ? 'Saving…' : draft ? 'Publish' : 'Save'}
          </button>
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={update.isPending}
            onClick={(e) => void save('draft')(e)}
          >
            Save as draft
          </button>
        </div>

        <GalleryModal
          target={gallery}
          folder={folder.trim()}
          product={product}
          mainImage={image}
          inList={inList}
          onHide={() => setGallery(null)}
          onMain={(src) => setValue('image', src, asEdit)}
          onAddToList={addToList}
          onVariant={(i, src) => setValue(`colorsVariants.${i}.src`, src, asEdit)}
          onDeleted={onDeleted}
        />
        <TimedToast toast={toast} delay={TOAST_MS.productSaved} onClose={() => setToast(null)} />
      </form>
    </FormProvider>
  );
}
