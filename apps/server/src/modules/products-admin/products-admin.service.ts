import {
  ERROR_CODES,
  LIMITS,
  NOTHING_TO_UPDATE,
  PRODUCT_MESSAGES,
  SKU_MAX,
  publishProblem,
  cleanText,
  hasChanges,
  isObjectId,
  slugify,
  toCents,
  type Product,
  type ProductBulkInput,
  type ProductBulkResponse,
  type ProductStatus,
  type ProductUpdateInput,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, NotFoundError } from '#server/lib/errors.ts';
import { pgErrorOf, uniqueViolation } from '#server/lib/sql.ts';
import { catalogRepository } from '../catalog/catalog.repository.ts';
import { toProduct } from '../catalog/catalog.view.ts';
import { sanitizeDescription } from './description.ts';
import {
  productsAdminRepository as repo,
  type ProductInsert,
  type VariantValues,
} from './products-admin.repository.ts';

const SAMPLE = {
  name: PRODUCT_MESSAGES.placeholderName,
  brand: 'Sample brand',
  description: '<p>Sample description</p>',
};

/** `base`, or `base-2`, `base-3`… whichever no other product holds now or held before (old links). */
async function uniqueSlug(db: Db, name: string, exceptId: string | null): Promise<string> {
  const base = slugify(name);
  const taken = await repo.slugsTaken(db, base, exceptId);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The slug index is the judge when two writers pick the same free slug at once: try again. */
async function retryOnSlugClash<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      const pg = pgErrorOf(err);
      if (pg?.code !== '23505' || attempt >= 3 || !/slug/.test(pg.constraint || String(err))) throw err;
    }
  }
}

/** A product as an admin sees it, whatever its status: the product page's fields plus `status`. */
export async function adminProduct(db: Db, id: string): Promise<Product> {
  const found = isObjectId(id) ? await repo.findWithCategory(db, id) : undefined;
  if (!found) throw new NotFoundError(PRODUCT_MESSAGES.notFound);
  const product = toProduct(found, await catalogRepository.detailParts(db, id));
  return { ...product, status: found.product.status as ProductStatus };
}

/**
 * POST /api/products: a draft for the admin to edit (a placeholder name, price 0). Shoppers never see
 * it; the first save publishes it, and a draft never published and untouched for a day is removed.
 */
export async function createDraftProduct(db: Db): Promise<Product> {
  const row = await retryOnSlugClash(async () =>
    repo.insert(db, {
      name: SAMPLE.name,
      slug: await uniqueSlug(db, SAMPLE.name, null),
      priceCents: 0,
      countInStock: 0,
      brand: SAMPLE.brand,
      status: 'draft',
      publishedAt: null,
      ...sanitizeDescription(SAMPLE.description),
    }),
  );
  return adminProduct(db, row.id);
}

async function resolveCategory(db: Db, value: string | null): Promise<string | null> {
  const v = cleanText(value ?? '');
  if (!v) return null;
  const id = isObjectId(v) ? await repo.categoryById(db, v) : await repo.categoryByName(db, v);
  if (!id) throw new BadRequestError(PRODUCT_MESSAGES.categoryNotFound);
  return id;
}

/** The variants of a validated body as the repository writes them (names cleaned, prices in cents). */
export function variantValues(list: NonNullable<ProductUpdateInput['colorsVariants']>): VariantValues[] {
  return list.map((v) => {
    const name = cleanText(v.name, 64);
    if (!name) throw new BadRequestError(PRODUCT_MESSAGES.variantName);
    const price = v.price === '' || v.price === null || v.price === undefined ? null : toCents(v.price);
    const id = v._id && isObjectId(v._id) ? v._id : undefined;
    return {
      id,
      name,
      src: v.src ?? '',
      priceCents: price,
      // left out: an existing variant keeps its stock and SKU (older clients send neither); a new one has none
      countInStock: v.countInStock !== undefined ? v.countInStock : id ? undefined : null,
      sku: v.sku !== undefined ? cleanText(v.sku, SKU_MAX) : id ? undefined : '',
    };
  });
}

/** A SKU another product's variant has is a 400 naming it (the unique index stays the judge in a race). */
async function checkSkusFree(db: Db, productId: string, variants: VariantValues[]): Promise<void> {
  const skus = variants.map((v) => v.sku?.toLowerCase() ?? '').filter((s) => s !== '');
  const [taken] = await repo.skusTaken(db, productId, skus);
  if (taken) throw new BadRequestError(PRODUCT_MESSAGES.skuTaken(taken), ERROR_CODES.DUPLICATE);
}

/** The columns a validated body changes but the category (text cleaned, description sanitised). */
export function productColumns(input: ProductUpdateInput): Partial<ProductInsert> {
  const set: Partial<ProductInsert> = {};
  if (input.name !== undefined) {
    const name = cleanText(input.name, LIMITS.productName);
    if (!name) throw new BadRequestError(PRODUCT_MESSAGES.nameRequired);
    set.name = name;
  }
  if (input.purchaseLink !== undefined) set.purchaseLink = input.purchaseLink;
  if (input.price !== undefined) set.priceCents = toCents(input.price);
  if (input.image !== undefined) set.image = input.image;
  if (input.imageFolderName !== undefined) set.imageFolderName = input.imageFolderName;
  if (input.video !== undefined) set.video = input.video;
  if (input.brand !== undefined) set.brand = cleanText(input.brand, 100);
  if (input.shippingMethod !== undefined) set.shippingMethod = cleanText(input.shippingMethod, 100);
  if (input.description !== undefined) Object.assign(set, sanitizeDescription(input.description));
  if (input.countInStock !== undefined) set.countInStock = input.countInStock;
  return set;
}

/** The columns a validated body changes (text cleaned, description sanitised, category resolved). */
async function columnsOf(db: Db, input: ProductUpdateInput): Promise<Partial<ProductInsert>> {
  const set = productColumns(input);
  if (input.category !== undefined) set.categoryId = await resolveCategory(db, input.category);
  return set;
}

/**
 * PUT /api/products/{id} (and /image/{id} with the gallery fields): every given field is replaced; the
 * gallery and the variants are replaced in the same transaction as the product row. A new name moves the
 * slug; the old one stays in product_slugs so links to it keep resolving.
 *
 * `publish` (PUT /api/products/{id}): the product ends up with the status the body names, else active (a
 * draft's first save publishes it). Being active needs a name other than the placeholder and a price
 * above zero; otherwise 400 and nothing changes. The image call (`publish` false) keeps the status.
 */
export async function updateProduct(db: Db, id: string, input: ProductUpdateInput, publish = false): Promise<Product> {
  const current = isObjectId(id) ? await repo.find(db, id) : undefined;
  if (!current) throw new NotFoundError(PRODUCT_MESSAGES.notFound);
  // `_id` names the product, it changes nothing
  if (!hasChanges(input, ['_id'])) throw new BadRequestError(NOTHING_TO_UPDATE, ERROR_CODES.NOTHING_TO_UPDATE);
  const set = await columnsOf(db, input);
  if (publish) {
    const status: ProductStatus = input.status ?? 'active';
    // an active product is checked when it is published, or when the body changes its name or price
    const checked = status === 'active' && (current.status !== 'active' || 'name' in set || 'priceCents' in set);
    const problem = checked ? publishProblem(set.name ?? current.name, set.priceCents ?? current.priceCents) : null;
    if (problem) throw new BadRequestError(problem);
    set.status = status;
    if (status === 'active' && current.publishedAt === null) set.publishedAt = new Date();
  }
  const variants = input.colorsVariants ? variantValues(input.colorsVariants) : undefined;
  if (variants) await checkSkusFree(db, id, variants);

  await retryOnSlugClash(async () => {
    const base = set.name !== undefined ? slugify(set.name) : undefined;
    // a slug still made from this name (e.g. 'lamp-2' for 'Lamp') stays; another name gets a new one
    const keep = base === undefined || current.slug === base || new RegExp(`^${base}-\\d+$`).test(current.slug);
    const slug = keep ? current.slug : await uniqueSlug(db, set.name!, id);
    await db.transaction(async (tx) => {
      if (slug !== current.slug) await repo.moveSlug(tx, id, current.slug, slug);
      await repo.update(tx, id, { ...set, slug });
      if (input.imageB)
        await repo.replaceImages(
          tx,
          id,
          input.imageB.map((i) => i.src),
        );
      if (variants) await repo.syncVariants(tx, id, variants);
    });
  }).catch(async (err: unknown) => {
    // another product took one of these SKUs since they were checked: say which
    if (variants && uniqueViolation(err) === 'product_variants_sku_uq') await checkSkusFree(db, id, variants);
    throw err;
  });
  return adminProduct(db, id);
}

/** Uploaded images join the product's gallery (upload order); the first is the main image if it has none. */
export async function attachUploads(db: Db, productId: string, folder: string, srcs: string[]): Promise<Product> {
  const found = await db.transaction((tx) => repo.attachImages(tx, productId, folder, srcs));
  if (!found) throw new NotFoundError(PRODUCT_MESSAGES.notFound);
  return adminProduct(db, productId);
}

/** Whether the product exists (checked before an upload that attaches to it is read). */
export async function productExists(db: Db, id: string): Promise<boolean> {
  return isObjectId(id) && (await repo.find(db, id)) !== undefined;
}

const plural = (n: number) => `${n} product${n === 1 ? '' : 's'}`;

/**
 * POST /api/products/bulk: one action on every selected product in one transaction, all or none: a
 * product missing, or one that cannot be published, refuses the whole request and changes nothing.
 */
export async function bulkProducts(db: Db, input: ProductBulkInput): Promise<ProductBulkResponse> {
  const ids = [...new Set(input.ids)];
  const categoryId = input.action === 'category' ? await resolveCategory(db, input.category ?? null) : null;
  return db.transaction(async (tx) => {
    // locked in id order, so two bulk requests over the same rows queue instead of deadlocking
    const rows = await repo.lockForBulk(tx, ids);
    if (rows.length !== ids.length) throw new NotFoundError(PRODUCT_MESSAGES.bulkNotFound);
    const n = rows.length;
    switch (input.action) {
      case 'activate': {
        const blocked = rows.filter((r) => publishProblem(r.name, r.priceCents) !== null);
        if (blocked.length) throw new BadRequestError(PRODUCT_MESSAGES.bulkPublish(blocked.map((r) => r.name)));
        await repo.setStatus(tx, ids, 'active');
        return { message: `${plural(n)} published`, count: n };
      }
      case 'draft':
        await repo.setStatus(tx, ids, 'draft');
        return { message: `${plural(n)} set to draft`, count: n };
      case 'category':
        await repo.setCategory(tx, ids, categoryId);
        return { message: `${plural(n)} moved to another category`, count: n };
      case 'delete':
        if ((await repo.removeMany(tx, ids)) !== n) throw new NotFoundError(PRODUCT_MESSAGES.bulkNotFound);
        return { message: `${plural(n)} deleted`, count: n };
    }
  });
}

/** DELETE /api/products/{id}: orders keep their item snapshots (order_items.product_id becomes null). */
export async function deleteProduct(db: Db, id: string): Promise<{ message: string }> {
  if (!isObjectId(id) || !(await repo.remove(db, id))) throw new NotFoundError(PRODUCT_MESSAGES.notFound);
  return { message: PRODUCT_MESSAGES.removed };
}
