import { PRODUCT_MESSAGES, type Product, type ProductUpdateInput } from '@store/shared';
import { useFormContext, type UseFormReturn } from 'react-hook-form';

/** The edit form's values: numbers stay text while typed (the shared schema reads '' as "not given"). */
export interface EditValues {
  name: string;
  purchaseLink: string;
  price: string;
  shippingMethod: string;
  imageFolderName: string;
  image: string;
  imageB: { src: string }[];
  video: string;
  brand: string;
  countInStock: string;
  category: string;
  description: string;
  /** A variant's stock '' draws on the product's stock; its SKU '' is none. */
  colorsVariants: { _id?: string; name: string; src: string; price: string; countInStock: string; sku: string }[];
}

/** A new variant row: no image, the product's price and stock, no SKU. */
export const emptyVariant = (): EditValues['colorsVariants'][number] => ({
  name: '',
  src: '',
  price: '',
  countInStock: '',
  sku: '',
});

/** The form: edited as EditValues, submitted as what the shared schema answers. */
export type EditForm = UseFormReturn<EditValues, unknown, ProductUpdateInput>;

/** The edit form, as its sections reach it (the page provides it). */
export const useEditForm = (): EditForm => useFormContext<EditValues, unknown, ProductUpdateInput>();

/** A value a button sets (not typed) counts as an edit and is checked at once. */
export const asEdit = { shouldDirty: true, shouldValidate: true } as const;

/** The folder a product's uploads go to when none is set: its slug (unique, already letters, digits and hyphens). */
export function defaultFolder(slug: string): string {
  return slug.slice(0, 64).replace(/^[^a-zA-Z0-9]+/, '') || 'products';
}

export function toValues(p: Product): EditValues {
  return {
    name: p.name,
    purchaseLink: p.purchaseLink,
    price: String(p.price),
    shippingMethod: p.shippingMethod,
    imageFolderName: p.imageFolderName || defaultFolder(p.slug ?? ''),
    image: p.image,
    imageB: p.imageB.map((i) => ({ src: i.src })),
    video: p.video,
    brand: p.brand,
    countInStock: String(p.countInStock),
    category: p.categoryId ?? '',
    description: p.description,
    colorsVariants: p.colorsVariants.map((v) => ({
      _id: v._id,
      name: v.name,
      src: v.src,
      price: v.price == null ? '' : String(v.price),
      countInStock: v.countInStock == null ? '' : String(v.countInStock),
      sku: v.sku ?? '',
    })),
  };
}

/**
 * The PUT body from what the schema answered: every field, the id, and variants without a price or a
 * stock of their own sent as null (null stock: the variant draws on the product's), without a SKU as ''.
 */
export function toBody(id: string, v: ProductUpdateInput): ProductUpdateInput {
  return {
    ...v,
    _id: id,
    colorsVariants: v.colorsVariants?.map((c) => ({
      ...c,
      price: c.price === '' ? null : c.price,
      countInStock: c.countInStock ?? null,
      sku: c.sku ?? '',
    })),
  };
}

/**
 * The variant whose SKU a "SKU … is already used by another product" refusal names (the server names
 * it as stored, perhaps in another case), or -1.
 */
export function variantOfTakenSku(message: string, variants: readonly { sku: string }[]): number {
  const m = message.toLowerCase();
  return variants.findIndex((v) => {
    const sku = v.sku.trim();
    return sku !== '' && m === PRODUCT_MESSAGES.skuTaken(sku).toLowerCase();
  });
}
