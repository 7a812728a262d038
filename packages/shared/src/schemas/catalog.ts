import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { amountFilter } from './common.ts';
import { OBJECT_ID_RE } from '../text.ts';

export const objectIdSchema = z.string().regex(OBJECT_ID_RE, 'Invalid id');

export const PRODUCT_SORTS = ['createdAt', 'name', 'price', 'rating', 'relevance'] as const;

/** Accepts 'true'/'false'/'1'/'0' from a query string. */
const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const productListQuerySchema = z.object({
  keyword: z.string().max(4096).optional(),
  sortBy: z.enum(PRODUCT_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
  adminCheck: queryBool.optional(),
  // The admin product list's filters, honoured for any caller since they only narrow a public list.
  id: z.string().max(24).optional(),
  name: z.string().max(LIMITS.productName).optional(),
  category: z.string().max(100).optional(),
  brand: z.string().max(100).optional(),
  /** Products with a variant whose SKU starts with this (whatever the case). */
  sku: z.string().max(64).optional(),
  minPrice: amountFilter('minPrice'),
  maxPrice: amountFilter('maxPrice'),
});
export type ProductListQuery = z.infer<typeof productListQuerySchema>;

export const reviewSchema = z.object({
  _id: z.string(),
  name: z.string(),
  rating: z.number(),
  comment: z.string(),
  createdAt: z.string(),
  verifiedPurchase: z.boolean().optional(),
});

export const colorVariantSchema = z.object({
  _id: z.string(),
  name: z.string(),
  src: z.string(),
  price: z.number().nullable().optional(),
  /** The variant's own stock, or null: it draws on the product's `countInStock`. */
  countInStock: z.number().int().nullable(),
  /** '' for none; unique across the store (whatever the case) when set. */
  sku: z.string(),
});

export const galleryImageSchema = z.object({ _id: z.string().optional(), src: z.string() });

export const productSummarySchema = z.object({
  _id: z.string(),
  slug: z.string(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  brand: z.string(),
  category: z.string(),
  categoryId: z.string().nullable(),
  countInStock: z.number(),
  rating: z.number(),
  numReviews: z.number(),
  purchaseLink: z.string(),
  colorsVariants: z.array(colorVariantSchema),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

export const productSchema = productSummarySchema.extend({
  imageFolderName: z.string(),
  imageB: z.array(galleryImageSchema),
  video: z.string(),
  description: z.string(),
  shippingMethod: z.string(),
  reviews: z.array(reviewSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Product = z.infer<typeof productSchema>;
export type ColorVariant = z.infer<typeof colorVariantSchema>;
export type Review = z.infer<typeof reviewSchema>;

export const productListResponseSchema = z.object({
  products: z.array(productSummarySchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type ProductListResponse = z.infer<typeof productListResponseSchema>;

export const categorySchema = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  parent: z.string().nullable(),
  hasChildren: z.boolean(),
});
export type Category = z.infer<typeof categorySchema>;
