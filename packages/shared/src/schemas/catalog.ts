import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { amountFilter } from './common.ts';
import { OBJECT_ID_RE } from '../text.ts';

export const objectIdSchema = z.string().regex(OBJECT_ID_RE, 'Invalid id');

/** `newest` is the default (`createdAt` is its older name); `relevance` orders a keyword search best first. */
export const PRODUCT_SORTS = ['newest', 'createdAt', 'name', 'price', 'rating', 'relevance'] as const;
/** What a shopper's sort picker offers, with its `sortBy` and `order`. */
export const SHOP_SORTS = [
  { key: 'newest', label: 'Newest', sortBy: 'newest', order: 'desc' },
  { key: 'price-asc', label: 'Price: low to high', sortBy: 'price', order: 'asc' },
  { key: 'price-desc', label: 'Price: high to low', sortBy: 'price', order: 'desc' },
  { key: 'rating', label: 'Top rated', sortBy: 'rating', order: 'desc' },
  { key: 'name', label: 'Name: A to Z', sortBy: 'name', order: 'asc' },
] as const;

/** 'draft': seen by admins only (a new product starts so); 'active': in the shop. */
export const PRODUCT_STATUSES = ['draft', 'active'] as const;
export const productStatusSchema = z.enum(PRODUCT_STATUSES, { error: "Status must be 'draft' or 'active'" });
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** Accepts 'true'/'false'/'1'/'0' from a query string. */
const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const productListQuerySchema = z
  .object({
    keyword: z.string().max(4096).optional(),
    sortBy: z.enum(PRODUCT_SORTS, { error: 'sortBy must be one of newest, price, rating, name' }).optional(),
    order: z.enum(['asc', 'desc'], { error: "order must be 'asc' or 'desc'" }).optional(),
    pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
    pageSize: z.coerce.number().int().min(1).max(100).optional(),
    adminCheck: queryBool.optional(),
    // The admin product list's filters, honoured for any caller since they only narrow a public list.
    id: z.string().max(24).optional(),
    name: z.string().max(LIMITS.productName).optional(),
    category: z.string().max(100).optional(),
    /** Exact brand, whatever the case; repeated (`brand=a&brand=b`): any of them. */
    brand: z
      .union([z.string().max(100), z.array(z.string().max(100)).max(20, 'At most 20 brands')], {
        error: 'brand must be text of at most 100 characters',
      })
      .optional(),
    /** Products with a variant whose SKU starts with this (whatever the case). */
    sku: z.string().max(64).optional(),
    minPrice: amountFilter('minPrice'),
    maxPrice: amountFilter('maxPrice'),
    /** `true`: only products a shopper can buy now (some stock, or some variant's). */
    inStock: z
      .enum(['true', 'false', '1', '0', ''], { error: "inStock must be 'true' or 'false'" })
      .transform((v) => v === 'true' || v === '1')
      .optional(),
    /** Products rated at least this (1 to 5). */
    minRating: z.coerce
      .number({ error: 'minRating must be a number from 1 to 5' })
      .min(1, 'minRating must be a number from 1 to 5')
      .max(5, 'minRating must be a number from 1 to 5')
      .optional(),
    /** `card`: each product with only what a grid card shows (no variants' details, no supplier link). */
    fields: z.enum(['card'], { error: "fields must be 'card'" }).optional(),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: 'minPrice must not be more than maxPrice',
    path: ['minPrice'],
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
  /** Answered to admins (every product they see has it). */
  status: productStatusSchema.optional(),
});
export type ProductSummary = z.infer<typeof productSummarySchema>;

export const productSchema = productSummarySchema.extend({
  /** The category's slug ('' without one): its page is /category/{slug}. */
  categorySlug: z.string().optional(),
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

/** Counts over the products matching every filter but the facet's own. */
export const productFacetsSchema = z.object({
  brands: z.array(z.object({ name: z.string(), count: z.number() })),
  categories: z.array(z.object({ slug: z.string(), name: z.string(), count: z.number() })),
  /** The lowest and highest price; both null when nothing matches. */
  price: z.object({ min: z.number().nullable(), max: z.number().nullable() }),
});
export type ProductFacets = z.infer<typeof productFacetsSchema>;

export const productListResponseSchema = z.object({
  products: z.array(productSummarySchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
  facets: productFacetsSchema,
  /** Set when a keyword matched nothing and these are similar products: the word they were found by. */
  suggestion: z.string().optional(),
});
export type ProductListResponse = z.infer<typeof productListResponseSchema>;

/** A product as a grid card shows it (`fields=card`): no description, variants or supplier link. */
export const productCardSchema = z.object({
  _id: z.string(),
  slug: z.string(),
  name: z.string(),
  image: z.string(),
  price: z.number(),
  /** The lowest price of the product and its variants (the card's "From"). */
  fromPrice: z.number(),
  rating: z.number(),
  numReviews: z.number(),
  /** Whether anything of it can be bought now. */
  inStock: z.boolean(),
});
export type ProductCardData = z.infer<typeof productCardSchema>;

export const productCardListResponseSchema = productListResponseSchema.extend({
  products: z.array(productCardSchema),
});
export type ProductCardListResponse = z.infer<typeof productCardListResponseSchema>;

export const categorySchema = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  parent: z.string().nullable(),
  hasChildren: z.boolean(),
});
export type Category = z.infer<typeof categorySchema>;

/** A category page's category: its parent (for the breadcrumb) in place of the parent's id. */
export const categoryPageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  parent: z.object({ _id: z.string(), name: z.string(), slug: z.string() }).nullable(),
  hasChildren: z.boolean(),
});
export type CategoryPage = z.infer<typeof categoryPageSchema>;
