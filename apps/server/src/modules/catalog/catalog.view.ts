import {
  fromCents,
  isSoldOut,
  type Category,
  type ColorVariant,
  type Product,
  type ProductCardData,
  type ProductStatus,
  type ProductSummary,
} from '@store/shared';
import type { catalogRepository, VariantRow } from './catalog.repository.ts';
import type { SummaryRow } from './product-list.repository.ts';

type Found = Omit<NonNullable<Awaited<ReturnType<typeof catalogRepository.findById>>>, 'categorySlug'> & {
  categorySlug?: string | null;
};
type DetailParts = Awaited<ReturnType<typeof catalogRepository.detailParts>>;
type CategoryRow = Awaited<ReturnType<typeof catalogRepository.rootCategories>>[number];

function toVariant(v: VariantRow): ColorVariant {
  return {
    _id: v.id,
    name: v.name,
    src: v.src,
    price: v.priceCents === null ? null : fromCents(v.priceCents),
    countInStock: v.countInStock,
    sku: v.sku,
  };
}

/** A list's product, with its colour variants (rows of many products, in any order). */
export function toSummaries(rows: SummaryRow[], variants: VariantRow[]): ProductSummary[] {
  const byProduct = new Map<string, ColorVariant[]>();
  for (const v of variants) {
    const list = byProduct.get(v.productId) ?? [];
    list.push(toVariant(v));
    byProduct.set(v.productId, list);
  }
  return rows.map((row) => ({
    _id: row.id,
    slug: row.slug,
    name: row.name,
    image: row.image,
    price: fromCents(row.priceCents),
    brand: row.brand,
    category: row.categoryName ?? '',
    categoryId: row.categoryId,
    countInStock: row.countInStock,
    rating: Number(row.rating),
    numReviews: row.numReviews,
    purchaseLink: row.purchaseLink,
    colorsVariants: byProduct.get(row.id) ?? [],
    status: row.status as ProductStatus,
  }));
}

/** What a grid card shows of a product (`fields=card`). */
export function toCard(p: ProductSummary): ProductCardData {
  const variantPrices = p.colorsVariants.map((v) => v.price).filter((x): x is number => typeof x === 'number');
  return {
    _id: p._id,
    slug: p.slug,
    name: p.name,
    image: p.image,
    price: p.price,
    fromPrice: variantPrices.length > 0 ? Math.min(p.price, ...variantPrices) : p.price,
    rating: p.rating,
    numReviews: p.numReviews,
    inStock: !isSoldOut(p),
  };
}

/** The product page: the product, its gallery, variants and latest reviews. */
export function toProduct(found: Found, parts: DetailParts): Product {
  const p = found.product;
  return {
    _id: p.id,
    slug: p.slug,
    name: p.name,
    image: p.image,
    price: fromCents(p.priceCents),
    brand: p.brand,
    category: found.categoryName ?? '',
    categorySlug: found.categorySlug ?? '',
    categoryId: p.categoryId,
    countInStock: p.countInStock,
    rating: Number(p.rating),
    numReviews: p.numReviews,
    purchaseLink: p.purchaseLink,
    colorsVariants: parts.variants.map(toVariant),
    imageFolderName: p.imageFolderName,
    imageB: parts.images.map((i) => ({ _id: i.id, src: i.src })),
    video: p.video,
    description: p.description,
    shippingMethod: p.shippingMethod,
    status: p.status as ProductStatus,
    reviews: parts.reviews.map((r) => ({
      _id: r.id,
      name: r.name,
      rating: r.rating,
      comment: r.comment,
      createdAt: r.createdAt.toISOString(),
      verifiedPurchase: r.verifiedPurchase,
    })),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function toCategory(c: CategoryRow): Category {
  return { _id: c.id, name: c.name, slug: c.slug, parent: c.parentId, hasChildren: Boolean(c.hasChildren) };
}
