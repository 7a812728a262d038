import {
  LOW_STOCK_DEFAULT,
  PAGE_SIZE,
  cleanText,
  fromCents,
  isObjectId,
  type AdminProductListQuery,
  type AdminProductListResponse,
  type AdminProductRow,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import {
  productsAdminListRepository as repo,
  type AdminListRow,
  type AdminProductFilter,
} from './products-admin-list.repository.ts';

function filterOf(q: AdminProductListQuery): AdminProductFilter {
  const f: AdminProductFilter = {};
  if (q.id?.trim()) f.idPrefix = q.id;
  if (q.name?.trim()) f.name = cleanText(q.name);
  if (q.brand?.trim()) f.brand = cleanText(q.brand);
  if (q.category?.trim()) {
    // an id names the category; any other text is looked for in the categories' names
    const c = cleanText(q.category);
    if (isObjectId(c)) f.categoryId = c;
    else f.categoryName = c;
  }
  if (q.sku?.trim()) f.skuPrefix = cleanText(q.sku, 64);
  if (q.status) f.status = q.status;
  if (q.minPrice !== undefined) f.minPriceCents = Math.round(q.minPrice * 100);
  if (q.maxPrice !== undefined) f.maxPriceCents = Math.round(q.maxPrice * 100);
  return f;
}

function toRow(r: AdminListRow): AdminProductRow {
  // low: the pool shoppers draw on (when something draws on it) or any variant's own stock is at the mark
  const low =
    (r.drawsPool && r.countInStock <= LOW_STOCK_DEFAULT) || (r.minOwn !== null && r.minOwn <= LOW_STOCK_DEFAULT);
  return {
    _id: r.id,
    slug: r.slug,
    name: r.name,
    image: r.image,
    price: fromCents(r.priceCents),
    brand: r.brand,
    category: r.categoryName ?? '',
    categoryId: r.categoryId,
    status: r.status,
    countInStock: r.countInStock,
    stock: r.stock,
    lowStock: low,
    skus: r.skus,
    purchaseLink: r.purchaseLink,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** GET /api/admin/products: drafts and active products, filtered, sorted (newest first by default), paged. */
export async function listAdminProducts(db: Db, q: AdminProductListQuery): Promise<AdminProductListResponse> {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.pageNumber;
  const filter = filterOf(q);
  const sortBy = q.sortBy ?? 'createdAt';
  const order = q.order ?? (sortBy === 'createdAt' ? 'desc' : 'asc');
  const rows = await repo.page(db, { filter, sortBy, order, limit: pageSize, offset: (page - 1) * pageSize });
  // a page that is not full ends the list: its total needs no count
  const total = (rows.length > 0 ? rows.length < pageSize : page === 1)
    ? (page - 1) * pageSize + rows.length
    : await repo.count(db, filter);
  return { products: rows.map(toRow), page, pages: Math.max(1, Math.ceil(total / pageSize)), total };
}
