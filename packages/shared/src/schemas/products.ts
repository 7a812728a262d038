/**
 * Admin product editing: the body of PUT /api/products/{id} and of
 * PUT /api/products/image/{id}, with clear messages. The server cleans text, sanitises the rich-text
 * description and resolves the category; these schemas only settle shapes and limits.
 */
import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { OBJECT_ID_RE } from '../text.ts';
import { productStatusSchema } from './catalog.ts';
import { amountFilter, changesSomething, numberish, twoDecimals } from './common.ts';

/** Gallery folder names: no dots or slashes, so no traversal. */
export const IMAGE_FOLDER_RE = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}$/;
/** An image the server stored: /uploads/{folder}/{file}. */
export const UPLOAD_SRC_RE = /^\/uploads\/[a-zA-Z0-9][a-zA-Z0-9_-]{0,63}\/[a-zA-Z0-9][a-zA-Z0-9_-]*(\.[a-zA-Z0-9]+)?$/;
export const PRODUCT_PRICE_MAX = 1_000_000;
export const PRODUCT_STOCK_MAX = 1_000_000;
export const SKU_MAX = 64;
/** Letters, digits and - _ . / (no spaces), or '' for none. */
export const SKU_RE = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export const PRODUCT_MESSAGES = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${LIMITS.productName} characters`,
  price: 'Price must be a number from 0 with at most two decimals',
  priceTooHigh: `Price must be at most ${PRODUCT_PRICE_MAX}`,
  variantPrice: 'Variant price must be empty or a number from 0 with at most two decimals',
  countInStock: 'Count in stock must be a whole number from 0',
  purchaseLink: 'Buy link must be an http(s) URL',
  video: 'Video must be an http(s) URL or an uploaded file',
  image: 'Images must be uploaded images (/uploads/...) or http(s) URLs',
  folder: 'Image Gallery Folder Name may contain only letters, digits, hyphens and underscores (at most 64)',
  variantName: 'Each colour variant needs a name',
  variantNameTooLong: 'Colour variant names must be at most 64 characters',
  variantStock: 'Variant stock must be empty (uses the product stock) or a whole number from 0',
  sku: `SKU must be at most ${SKU_MAX} characters of letters, digits and - _ . /`,
  skuRepeated: (sku: string) => `SKU ${sku} is given to more than one variant`,
  skuTaken: (sku: string) => `SKU ${sku} is already used by another product`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
  categoryNotFound: 'Category not found',
  notFound: 'Product not found',
  saved: 'Product saved successfully.',
  savedDraft: 'Draft saved. Shoppers do not see it until you publish it.',
  published: 'Product published.',
  removed: 'Product removed',
  /** What a new product starts with: publishing needs another name. */
  placeholderName: 'Sample name',
  publishName: "Give the product a real name before publishing (not 'Sample name')",
  publishPrice: 'Set a price above 0 before publishing',
  publishBoth: "Give the product a real name (not 'Sample name') and a price above 0 before publishing",
  bulkNotFound: 'Some of the selected products no longer exist; nothing was changed',
  bulkPublish: (names: string[]) =>
    `Not published: ${names.join(', ')} ${names.length === 1 ? 'needs' : 'need'} a real name and a price above 0; nothing was changed`,
  bulkCategory: 'Choose a category',
} as const;

/** Whether a product may be active: a name other than the placeholder and a price above zero. */
export function publishProblem(name: string, priceCents: number): string | null {
  const placeholder = name.trim().toLowerCase() === PRODUCT_MESSAGES.placeholderName.toLowerCase();
  if (placeholder && priceCents <= 0) return PRODUCT_MESSAGES.publishBoth;
  if (placeholder) return PRODUCT_MESSAGES.publishName;
  if (priceCents <= 0) return PRODUCT_MESSAGES.publishPrice;
  return null;
}

// written without URL (the shared package runs without DOM or Node types): scheme, host, optional port, rest
const HTTP_URL_RE =
  /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)*)(:\d{1,5})?([/?#][^\s<>"\\\u0000-\u001f\u007f]*)?$/i;

export function isHttpUrl(value: string): boolean {
  return value.length <= 2000 && HTTP_URL_RE.test(value);
}

export function isImageSrc(value: string): boolean {
  return (UPLOAD_SRC_RE.test(value) && !value.includes('..')) || isHttpUrl(value);
}

const price = (message: string) =>
  z.preprocess(
    numberish,
    z
      .number({ error: message })
      .finite(message)
      .min(0, message)
      .max(PRODUCT_PRICE_MAX, PRODUCT_MESSAGES.priceTooHigh)
      .refine(twoDecimals, message),
  );

const imageSrc = z.string({ error: PRODUCT_MESSAGES.image }).trim().refine(isImageSrc, PRODUCT_MESSAGES.image);
const imageSrcOrEmpty = z
  .string({ error: PRODUCT_MESSAGES.image })
  .trim()
  .refine((v) => v === '' || isImageSrc(v), PRODUCT_MESSAGES.image);

export const variantInputSchema = z.object({
  _id: z.string().max(64).optional(),
  name: z
    .string({ error: PRODUCT_MESSAGES.variantName })
    .trim()
    .min(1, PRODUCT_MESSAGES.variantName)
    .max(64, PRODUCT_MESSAGES.variantNameTooLong),
  src: imageSrcOrEmpty.optional().default(''),
  /** Empty or null: the product's price applies. */
  price: z
    .union([z.literal(''), z.null(), price(PRODUCT_MESSAGES.variantPrice)], { error: PRODUCT_MESSAGES.variantPrice })
    .optional(),
  /** Empty or null: the variant draws on the product's stock. */
  countInStock: z
    .preprocess(
      (v) => (v === '' ? null : numberish(v)),
      z
        .number({ error: PRODUCT_MESSAGES.variantStock })
        .int(PRODUCT_MESSAGES.variantStock)
        .min(0, PRODUCT_MESSAGES.variantStock)
        .max(PRODUCT_STOCK_MAX, PRODUCT_MESSAGES.variantStock)
        .nullable(),
    )
    .optional(),
  sku: z
    .string({ error: PRODUCT_MESSAGES.sku })
    .trim()
    .max(SKU_MAX, PRODUCT_MESSAGES.sku)
    .refine((v) => v === '' || SKU_RE.test(v), PRODUCT_MESSAGES.sku)
    .optional(),
});
export type VariantInput = z.infer<typeof variantInputSchema>;

export const galleryInputSchema = z.object({ _id: z.string().max(64).optional(), src: imageSrc });

const productFields = z.object({
  /** Ignored: the id in the path names the product. */
  _id: z.string().max(64).optional(),
  name: z
    .string({ error: PRODUCT_MESSAGES.nameRequired })
    .trim()
    .min(1, PRODUCT_MESSAGES.nameRequired)
    .max(LIMITS.productName, PRODUCT_MESSAGES.nameTooLong)
    .optional(),
  purchaseLink: z
    .string({ error: PRODUCT_MESSAGES.purchaseLink })
    .trim()
    .refine((v) => v === '' || isHttpUrl(v), PRODUCT_MESSAGES.purchaseLink)
    .optional(),
  price: price(PRODUCT_MESSAGES.price).optional(),
  image: imageSrcOrEmpty.optional(),
  imageFolderName: z
    .string({ error: PRODUCT_MESSAGES.folder })
    .trim()
    .refine((v) => v === '' || IMAGE_FOLDER_RE.test(v), PRODUCT_MESSAGES.folder)
    .optional(),
  imageB: z.array(galleryInputSchema).max(100, 'At most 100 gallery images').optional(),
  colorsVariants: z
    .array(variantInputSchema)
    .max(50, 'At most 50 colour variants')
    .superRefine((variants, ctx) => {
      const seen = new Set<string>();
      variants.forEach((v, i) => {
        const key = (v.sku ?? '').toLowerCase();
        if (key === '') return;
        if (seen.has(key))
          ctx.addIssue({ code: 'custom', path: [i, 'sku'], message: PRODUCT_MESSAGES.skuRepeated(v.sku!) });
        seen.add(key);
      });
    })
    .optional(),
  video: z
    .string({ error: PRODUCT_MESSAGES.video })
    .trim()
    .refine((v) => v === '' || isHttpUrl(v) || (UPLOAD_SRC_RE.test(v) && !v.includes('..')), PRODUCT_MESSAGES.video)
    .optional(),
  brand: z.string().max(100, PRODUCT_MESSAGES.tooLong('Brand', 100)).optional(),
  shippingMethod: z.string().max(100, PRODUCT_MESSAGES.tooLong('Shipping method', 100)).optional(),
  /** A category id, or a category name; empty or null: no category. */
  category: z.string().max(100, PRODUCT_MESSAGES.tooLong('Category', 100)).nullable().optional(),
  /** Rich text (HTML); the server keeps only its allowlist of tags and attributes. */
  description: z.string().max(100_000, PRODUCT_MESSAGES.tooLong('Description', 100_000)).optional(),
  countInStock: z
    .preprocess(
      numberish,
      z
        .number({ error: PRODUCT_MESSAGES.countInStock })
        .int(PRODUCT_MESSAGES.countInStock)
        .min(0, PRODUCT_MESSAGES.countInStock)
        .max(PRODUCT_STOCK_MAX, PRODUCT_MESSAGES.countInStock),
    )
    .optional(),
  /** Left out: a draft is published and an active product stays active. */
  status: productStatusSchema.optional(),
});

/** PUT /api/products/{id}: every field optional, only what is sent changes (and something must be). */
export const productUpdateSchema = changesSomething(productFields, ['_id']);
export type ProductUpdateInput = z.infer<typeof productUpdateSchema>;

/** PUT /api/products/image/{id}: the gallery-related fields only (after uploads or deletions in the gallery). */
export const productImageUpdateSchema = changesSomething(
  productFields.pick({
    image: true,
    imageFolderName: true,
    imageB: true,
    colorsVariants: true,
  }),
);
export type ProductImageUpdateInput = z.infer<typeof productImageUpdateSchema>;

/** The admin product list's sortable columns (each backed by an index, stock by its own sum). */
export const ADMIN_PRODUCT_SORTS = ['createdAt', 'name', 'price', 'stock', 'status', 'brand'] as const;
export type AdminProductSort = (typeof ADMIN_PRODUCT_SORTS)[number];

/** GET /api/admin/products: the admin list's filters, sort and page. */
export const adminProductListQuerySchema = z.object({
  id: z.string().max(24).optional(),
  name: z.string().max(LIMITS.productName).optional(),
  category: z.string().max(100).optional(),
  brand: z.string().max(100).optional(),
  /** Products with a variant whose SKU starts with this (whatever the case). */
  sku: z.string().max(64).optional(),
  status: z.union([productStatusSchema, z.literal('')]).optional(),
  minPrice: amountFilter('minPrice'),
  maxPrice: amountFilter('maxPrice'),
  sortBy: z.enum(ADMIN_PRODUCT_SORTS, { error: 'Unknown sort' }).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
export type AdminProductListQuery = z.infer<typeof adminProductListQuerySchema>;

/** A product as the admin list shows it. */
export const adminProductRowSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  brand: z.string(),
  category: z.string(),
  categoryId: z.string().nullable(),
  status: productStatusSchema,
  /** The product's own stock. */
  countInStock: z.number(),
  /** What can be sold: the product's pool (when something draws on it) plus variants' own stock. */
  stock: z.number(),
  /** Whether the stock (or a variant's own stock) is at or below the low-stock mark. */
  lowStock: z.boolean(),
  /** The variants' SKUs (non-empty ones, in variant order). */
  skus: z.array(z.string()),
  purchaseLink: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminProductRow = z.infer<typeof adminProductRowSchema>;

export const adminProductListResponseSchema = z.object({
  products: z.array(adminProductRowSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type AdminProductListResponse = z.infer<typeof adminProductListResponseSchema>;

export const BULK_PRODUCT_ACTIONS = ['activate', 'draft', 'category', 'delete'] as const;
export const BULK_PRODUCTS_MAX = 200;

/** POST /api/products/bulk: one action on the selected products, all of them or none. */
export const productBulkSchema = z
  .object({
    ids: z
      .array(z.string().regex(OBJECT_ID_RE, 'Invalid product id'), { error: 'Select at least one product' })
      .min(1, 'Select at least one product')
      .max(BULK_PRODUCTS_MAX, `Select at most ${BULK_PRODUCTS_MAX} products`),
    action: z.enum(BULK_PRODUCT_ACTIONS, { error: "Action must be 'activate', 'draft', 'category' or 'delete'" }),
    /** For 'category': a category id or name; empty or null removes the category. */
    category: z.string().max(100, PRODUCT_MESSAGES.tooLong('Category', 100)).nullable().optional(),
  })
  .refine((b) => b.action !== 'category' || b.category !== undefined, {
    message: PRODUCT_MESSAGES.bulkCategory,
    path: ['category'],
  });
export type ProductBulkInput = z.infer<typeof productBulkSchema>;

export const productBulkResponseSchema = z.object({ message: z.string(), count: z.number() });
export type ProductBulkResponse = z.infer<typeof productBulkResponseSchema>;
