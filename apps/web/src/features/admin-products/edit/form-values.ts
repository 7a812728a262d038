import type { Product, ProductUpdateInput } from '@store/shared';
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
  colorsVariants: { _id?: string; name: string; src: string; price: string }[];
}

/** The form: edited as EditValues, submitted as what the shared schema answers. */
export type EditForm = UseFormReturn<EditValues, unknown, ProductUpdateInput>;

/** The edit form, as its sections reach it (the page provides it). */
export const useEditForm = (): EditForm => useFormContext<EditValues, unknown, ProductUpdateInput>();

/** A value a button sets (not typed) counts as an edit and is checked at once. */
export const asEdit = { shouldDirty: true, shouldValidate: true } as const;

export function toValues(p: Product): EditValues {
  return {
    name: p.name,
    purchaseLink: p.purchaseLink,
    price: String(p.price),
    shippingMethod: p.shippingMethod,
    imageFolderName: p.imageFolderName,
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
    })),
  };
}

/** The PUT body from what the schema answered: every field, the id, and variants without a price sent as null. */
export function toBody(id: string, v: ProductUpdateInput): ProductUpdateInput {
  return {
    ...v,
    _id: id,
    colorsVariants: v.colorsVariants?.map((c) => ({ ...c, price: c.price === '' ? null : c.price })),
  };
}
