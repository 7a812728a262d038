import { isObjectId, type OrderItemInput } from '@store/shared';
import { BadRequestError } from '#server/lib/errors.ts';

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

/** A variant as pricing and the stock gate read it. */
export interface VariantForOrder {
  id: string;
  name: string;
  src: string;
  priceCents: number | null;
  /** Own stock, or null: the variant sells from its product's. */
  countInStock: number | null;
}

/** A product as pricing and the stock gate read it (orders.repository `productsFor`), with its variants. */
export interface ProductForOrder {
  id: string;
  name: string;
  image: string;
  priceCents: number;
  countInStock: number;
  variants: VariantForOrder[];
}

/**
 * The stock a line draws on, as read: `v:<id>` for a variant with its own stock, else `p:<id>` for its
 * product's (the placing statement decides again on the rows it locks).
 */
export function poolOf(
  line: { productId: string; variantId: string | null },
  product: ProductForOrder | undefined,
): { pool: string; stock: number; name: string } {
  const variant = line.variantId ? product?.variants.find((v) => v.id === line.variantId) : undefined;
  if (product && variant && variant.countInStock !== null)
    return { pool: `v:${variant.id}`, stock: variant.countInStock, name: `${product.name} (${variant.name})` };
  return { pool: `p:${line.productId}`, stock: product?.countInStock ?? 0, name: product?.name ?? line.productId };
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
 * Prices the lines from the catalogue alone (the products as read for this order, with their
 * variants): the variant's price when it has one, else the product's. Unknown products or variants
 * are a 400.
 */
export function priceLines(lines: ReturnType<typeof orderLines>, found: ProductForOrder[]): PricedLine[] {
  const byId = new Map(found.map((p) => [p.id, p]));
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
    const variant = product.variants.find((v) => v.id === line.variantId);
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
