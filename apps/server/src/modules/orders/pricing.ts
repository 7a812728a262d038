import { isObjectId, type OrderItemInput } from '@store/shared';
import type { Db } from '../../db/client.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { ordersRepository as repo } from './orders.repository.ts';

/** A line priced from the catalogue, with the snapshot the order keeps. */
export interface PricedLine {
  productId: string;
  variantId: string | null;
  variantName: string;
  name: string;
  image: string;
  unitPriceCents: number;
  qty: number;
  /** The product's stock when priced, read without a lock: a hint only (the conditional UPDATE decides). */
  inStock: number;
}

function variantIdOf(ref: OrderItemInput['selectedColorsVariants']): string | null {
  if (ref === null || ref === undefined) return null;
  const id = typeof ref === 'string' ? ref : ref._id;
  return id.trim() === '' ? null : id.trim();
}

/**
 * Prices the client's lines from the catalogue alone: the variant's price when it has one, else the
 * product's. Lines for the same product and variant are merged. Unknown products or variants are a 400.
 */
export async function priceLines(db: Db, items: OrderItemInput[]): Promise<PricedLine[]> {
  const wanted = new Map<string, { productId: string; variantId: string | null; qty: number }>();
  for (const item of items) {
    const productId = item.product.trim().toLowerCase();
    if (!isObjectId(productId)) throw new BadRequestError(`Product not found: ${item.product.slice(0, 64)}`);
    const variantId = variantIdOf(item.selectedColorsVariants);
    const key = `${productId}/${variantId ?? ''}`;
    const line = wanted.get(key) ?? { productId, variantId, qty: 0 };
    line.qty += item.qty;
    wanted.set(key, line);
  }

  const productIds = [...new Set([...wanted.values()].map((l) => l.productId))];
  const [found, variants] = await Promise.all([repo.productsFor(db, productIds), repo.variantsFor(db, productIds)]);
  const byId = new Map(found.map((p) => [p.id, p]));

  return [...wanted.values()].map((line) => {
    const product = byId.get(line.productId);
    if (!product) throw new BadRequestError(`Product not found: ${line.productId}`);
    if (line.variantId === null)
      return {
        ...line,
        variantName: '',
        name: product.name,
        image: product.image,
        unitPriceCents: product.priceCents,
        inStock: product.countInStock,
      };
    const variant = variants.find((v) => v.id === line.variantId && v.productId === product.id);
    if (!variant) throw new BadRequestError(`Selected variant not found for ${product.name}`);
    return {
      ...line,
      variantName: variant.name,
      name: product.name,
      image: variant.src || product.image,
      unitPriceCents: variant.priceCents ?? product.priceCents,
      inStock: product.countInStock,
    };
  });
}
