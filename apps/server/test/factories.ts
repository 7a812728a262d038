import { htmlToText, slugify } from '@store/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import {
  categories,
  coupons,
  productImages,
  productVariants,
  products,
  reviews,
  users,
} from '../src/db/schema/index.ts';
import { newId } from '../src/lib/ids.ts';

let seq = 0;
const next = () => ++seq;

export async function createCategory(db: Db, o: Partial<typeof categories.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(categories)
    .values({ name: `Category ${n}`, slug: `category-${n}-${newId().slice(-6)}`, ...o })
    .returning();
  return row!;
}

export interface ProductOverrides extends Partial<typeof products.$inferInsert> {
  variants?: { name: string; src?: string; priceCents?: number | null; countInStock?: number | null; sku?: string }[];
  images?: string[];
}

export async function createProduct(db: Db, o: ProductOverrides = {}) {
  const n = next();
  const { variants = [], images = [], ...fields } = o;
  const name = fields.name ?? `Test Product ${n}`;
  const description = fields.description ?? `<p>Description of ${name}</p>`;
  const [row] = await db
    .insert(products)
    .values({
      slug: `${slugify(name)}-${newId().slice(-6)}`,
      priceCents: 1999,
      countInStock: 10,
      brand: 'Acme',
      image: `/uploads/test/p${n}.webp`,
      ...fields,
      name,
      description,
      descriptionText: htmlToText(description),
    })
    .returning();
  const variantRows = variants.length
    ? await db
        .insert(productVariants)
        .values(
          variants.map((v, i) => ({
            productId: row!.id,
            name: v.name,
            src: v.src ?? '',
            priceCents: v.priceCents ?? null,
            countInStock: v.countInStock ?? null,
            sku: v.sku ?? '',
            position: i,
          })),
        )
        .returning()
    : [];
  if (images.length)
    await db.insert(productImages).values(images.map((src, i) => ({ productId: row!.id, src, position: i })));
  // the variants in the order given
  return Object.assign(row!, { variantRows: variantRows.sort((a, b) => a.position - b.position) });
}

/** A discount code (value in hundredths: percent × 100, or cents), active and unlimited unless told. */
export async function createCoupon(db: Db, o: Partial<typeof coupons.$inferInsert> = {}) {
  const [row] = await db
    .insert(coupons)
    .values({ code: `CODE${next()}${newId().slice(-4).toUpperCase()}`, type: 'percent', value: 1000, ...o })
    .returning();
  return row!;
}

export async function createUser(db: Db, o: Partial<typeof users.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(users)
    .values({
      username: `user${n}_${newId().slice(-4)}`,
      firstName: 'Test',
      lastName: `User${n}`,
      email: `user${n}.${newId().slice(-6)}@example.com`,
      isActive: true,
      ...o,
    })
    .returning();
  return row!;
}

/** Adds a review and recomputes the product's rating the way the review service does. */
export async function addReview(
  db: Db,
  productId: string,
  rating: number,
  o: Partial<typeof reviews.$inferInsert> = {},
) {
  await db.insert(reviews).values({ productId, rating, name: 'Reviewer', comment: 'Nice', ...o });
  await db
    .update(products)
    .set({
      numReviews: sql`(select count(*) from ${reviews} where ${reviews.productId} = ${productId})`,
      rating: sql`(select round(avg(${reviews.rating})::numeric, 2) from ${reviews} where ${reviews.productId} = ${productId})`,
    })
    .where(eq(products.id, productId));
}
