import { isObjectId, type OrderItemInput } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
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
}

function variantIdOf(ref: OrderItemInput['selectedColorsVariants']): string | null {
  if (ref === null || ref === undefined) return null;
  const id = typeof ref === 'string' ? ref : ref._id;
  return id.trim() === '' ? null : id.trim();
}

/** A product as pricing and the stock gate read it (orders.repository `productsFor`). */
export interface ProductForOrder {
  id: string;
  name: string;
  image: string;
  priceCents: number;
  countInStock: number;
}

/** The client's lines, validated and merged (same product and variant): a bad product id is a 400. */
export function orderLines(items: OrderItemInput[]): { productId: string; variantId: string | null; qty: number }[] {
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
  return [...wanted.values()];
}

/**
 * Prices the lines from the catalogue alone (the products as read for this order, and their variants
 * when a line names one): the variant's price when it has one, else the product's. Unknown products
 * or variants are a 400.
 */
export async function priceLines(
  db: Db,
  lines: ReturnType<typeof orderLines>,
  found: ProductForOrder[],
): Promise<PricedLine[]> {
  const byId = new Map(found.map((p) => [p.id, p]));
  const withVariant = [...new Set(lines.filter((l) => l.variantId !== null).map((l) => l.productId))];
  const variants = withVariant.length > 0 ? await repo.variantsFor(db, withVariant) : [];

  return lines.map((line) => {
    const product = byId.get(line.productId);
    if (!product) throw new BadRequestError(`Product not found: ${line.productId}`);
    if (line.variantId === null)
      return {
        ...line,
        variantName: '',
        name: product.name,
        image: product.image,
        unitPriceCents: product.priceCents,
      };
    const variant = variants.find((v) => v.id === line.variantId && v.productId === product.id);
    if (!variant) throw new BadRequestError(`Selected variant not found for ${product.name}`);
    return {
      ...line,
      variantName: variant.name,
      name: product.name,
      image: variant.src || product.image,
      unitPriceCents: variant.priceCents ?? product.priceCents,
    };
  });
}
