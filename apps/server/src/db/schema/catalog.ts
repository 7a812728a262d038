import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  numeric,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ref, ts, updatedAt } from './columns.ts';
import { users } from './users.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const categories = pgTable(
  'categories',
  {
    id: id(),
    name: varchar('name', { length: 100 }).notNull(),
    slug: varchar('slug', { length: 100 }).notNull(),
    parentId: ref('parent_id'),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('categories_slug_uq').on(t.slug),
    index('categories_parent_idx').on(t.parentId, t.position),
    index('categories_name_idx').on(sql`lower(${t.name})`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: id(),
    slug: varchar('slug', { length: 100 }).notNull(),
    name: varchar('name', { length: 200 }).notNull(),
    purchaseLink: text('purchase_link').notNull().default(''),
    priceCents: integer('price_cents').notNull().default(0),
    image: text('image').notNull().default(''),
    imageFolderName: varchar('image_folder_name', { length: 64 }).notNull().default(''),
    video: text('video').notNull().default(''),
    // sanitised HTML; descriptionText is its plain text for search and meta tags
    description: text('description').notNull().default(''),
    descriptionText: text('description_text').notNull().default(''),
    brand: varchar('brand', { length: 100 }).notNull().default(''),
    categoryId: ref('category_id').references(() => categories.id, { onDelete: 'set null' }),
    countInStock: integer('count_in_stock').notNull().default(0),
    // whether something of the product can be bought now: with variants, some variant has stock (its own
    // count, or the product's when it has none); without, the product's count is above 0. Triggers on
    // products and product_variants keep it so on every write (a value written here is overwritten)
    inStock: boolean('in_stock').notNull().default(false),
    rating: numeric('rating', { precision: 3, scale: 2, mode: 'number' }).notNull().default(0),
    numReviews: integer('num_reviews').notNull().default(0),
    shippingMethod: varchar('shipping_method', { length: 100 }).notNull().default(''),
    // 'draft': seen by admins only; 'active': in the shop
    status: varchar('status', { length: 16 }).notNull().default('active'),
    // when the product first became active; null only for a draft never published (the cleanup sweep's mark)
    publishedAt: ts('published_at').defaultNow(),
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(brand, '')), 'B') || setweight(to_tsvector('english', left(coalesce(description_text, ''), 4000)), 'D')`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('products_slug_uq').on(t.slug),
    index('products_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // a shopper's "in stock" list newest first, and its count: read on the index alone, however deep the page
    index('products_in_stock_created_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.status} = 'active' and ${t.inStock}`),
    // the price sort; brand, category and status follow so the facets over a price range (brands,
    // categories) are counted on the index alone
    index('products_price_idx').on(t.priceCents, t.id, t.brand, t.categoryId, t.status),
    // the name sort; a shopper's filters follow, so that a walk checks them in the index, not in each row
    // (the name itself last: PostgreSQL reads an expression's column from the index only when it is in it)
    index('products_name_idx').on(sql`lower(${t.name})`, t.id, t.categoryId, t.priceCents, t.inStock, t.status, t.name),
    // the search box's limit is the longest product name: max() reads the end of this index
    index('products_name_length_idx').on(sql`char_length(${t.name})`),
    index('products_rating_idx').on(t.rating.desc(), t.numReviews.desc(), t.id),
    // lowest rated first keeps the most reviewed first among equals: not this index's reverse, and walking
    // it backwards would sort every unrated product (most of a large catalogue) to find one page
    index('products_rating_asc_idx').on(t.rating.asc().nullsFirst(), t.numReviews.desc(), t.id),
    index('products_category_idx').on(t.categoryId, t.createdAt.desc()),
    // a shopper's filters with their sorts: a category by price, a brand newest first
    index('products_category_price_idx').on(t.categoryId, t.priceCents, t.id),
    index('products_brand_created_idx').on(sql`lower(${t.brand})`, t.createdAt.desc(), t.id.desc()),
    // a brand by name: products are often named after their brand, so in the name order a brand's products
    // lie together and a walk of the name index alone would pass everything before them
    index('products_brand_name_idx').on(sql`lower(${t.brand})`, sql`lower(${t.name})`, t.id),
    // a brand by price (a shopper's, and the admin list's once its "contains" text is resolved to the brands
    // it matches); its first column alone lists the distinct brands (a skip scan). The brand itself comes last
    // so that a count reads the index alone: PostgreSQL reads an expression's column from the index only
    // when the column is in it
    index('products_brand_price_idx').on(sql`lower(${t.brand})`, t.priceCents, t.id, t.brand),
    // the admin list's brand filter is a "contains" match: trigrams answer LIKE '%…%' when there are too
    // many distinct brands to resolve
    index('products_brand_trgm_idx')
      .using('gin', sql`lower(${t.brand}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    // fastupdate off: PGlite runs no autovacuum, so pending GIN entries would pile up
    index('products_search_idx').using('gin', t.searchVector).with({ fastupdate: false }),
    index('products_name_trgm_idx')
      .using('gin', sql`lower(${t.name}) gin_trgm_ops`)
      .with({ fastupdate: false }),
    // the admin list's status filter and sort
    index('products_status_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    // the sweep that removes drafts nobody touched for a day reads only these rows
    index('products_stale_draft_idx')
      .on(t.updatedAt)
      .where(sql`${t.status} = 'draft' and ${t.publishedAt} is null`),
    check('products_status_valid', sql`${t.status} in ('draft', 'active')`),
    check('products_stock_nonneg', sql`${t.countInStock} >= 0`),
    check('products_price_nonneg', sql`${t.priceCents} >= 0`),
  ],
);

/** Slugs a product had before a rename, so old links keep redirecting. */
export const productSlugs = pgTable('product_slugs', {
  slug: varchar('slug', { length: 100 }).primaryKey(),
  productId: ref('product_id')
    .notNull()
    .references(() => products.id, { onDelete: 'cascade' }),
});

export const productImages = pgTable(
  'product_images',
  {
    id: id(),
    productId: ref('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    src: text('src').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('product_images_product_idx').on(t.productId, t.position)],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: id(),
    productId: ref('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 64 }).notNull(),
    src: text('src').notNull().default(''),
    // null: the product's price applies
    priceCents: integer('price_cents'),
    position: integer('position').notNull().default(0),
    // null: orders for this variant take from the product's count_in_stock; a number: from this alone
    countInStock: integer('count_in_stock'),
    sku: varchar('sku', { length: 64 }).notNull().default(''),
  },
  (t) => [
    index('product_variants_product_idx').on(t.productId, t.position),
    check('product_variants_price_nonneg', sql`${t.priceCents} is null or ${t.priceCents} >= 0`),
    // placing an order takes stock unconditionally: this check refuses the statement that would oversell
    check('product_variants_stock_nonneg', sql`${t.countInStock} is null or ${t.countInStock} >= 0`),
    // one SKU per variant across the store, whatever its case; pattern ops also answer the admin's prefix filter
    uniqueIndex('product_variants_sku_uq')
      .on(sql`lower(${t.sku}) text_pattern_ops`)
      .where(sql`${t.sku} <> ''`),
  ],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    productId: ref('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: ref('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 100 }).notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull().default(''),
    verifiedPurchase: boolean('verified_purchase').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('reviews_product_idx').on(t.productId, t.createdAt.desc()),
    uniqueIndex('reviews_product_user_uq').on(t.productId, t.userId),
    check('reviews_rating_range', sql`${t.rating} between 1 and 5`),
  ],
);
