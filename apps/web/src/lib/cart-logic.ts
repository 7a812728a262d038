import {
  stockFor,
  toCents,
  type ColorVariant,
  type ORDER_QTY_MAX as SHARED_ORDER_QTY_MAX,
  type Product,
} from '@store/shared';

/**
 * The most units of one line an order takes, `ORDER_QTY_MAX` of @store/shared: its type is that constant's, so
 * the compiler holds the two equal. (Not imported as a value: the module that defines it also builds zod
 * schemas, which would put zod into the shopper's first load.)
 */
export const ORDER_QTY_MAX: typeof SHARED_ORDER_QTY_MAX = 10_000;

/** A cart line. Identity is the product plus the variant. */
export interface CartItem {
  product: string;
  name: string;
  image: string;
  price: number;
  /** Units of the pool this line buys from: the variant's own stock, or the product's. */
  countInStock: number;
  selectedColorsVariants: ColorVariant | null;
  qty: number;
  /** For the name link; older lines may lack it and link by id. */
  slug?: string;
}

const variantId = (v: ColorVariant | null | undefined) => v?._id ?? null;

export function sameLine(
  a: Pick<CartItem, 'product' | 'selectedColorsVariants'>,
  productId: string,
  variant: string | null,
) {
  return a.product === productId && variantId(a.selectedColorsVariants) === variant;
}

/** The highest quantity a picker offers for this stock: the stock, at most ORDER_QTY_MAX, and at least 1. */
export const qtyMax = (stock: number) => Math.max(1, Math.min(Math.floor(stock) || 0, ORDER_QTY_MAX));

/** A quantity brought into 1..qtyMax(stock) (a non-number counts as 1). */
export const clampQty = (qty: number, stock: number) => Math.max(1, Math.min(Math.floor(qty) || 1, qtyMax(stock)));

/**
 * What a typed quantity means: a whole number from 1, capped at `max`; null while the text is no such
 * number yet (empty, 0, a fraction), so the picker keeps the last good quantity.
 */
export function parseQty(text: string, max: number): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 ? Math.min(n, Math.max(1, max)) : null;
}

/**
 * The line a product (and optional variant) makes: a variant's own price and image win, and its stock
 * is the variant's own when it has one, else the product's.
 */
export function lineFor(product: Product, variant: ColorVariant | null, qty: number): CartItem {
  const stock = stockFor(product, variant);
  return {
    product: product._id,
    slug: product.slug,
    name: product.name,
    image: variant?.src || product.image,
    price: variant?.price ?? product.price,
    countInStock: stock,
    selectedColorsVariants: variant,
    qty: clampQty(qty, stock),
  };
}

/**
 * Adds a line: an existing product + variant raises its quantity (capped at the stock)
 * and takes the fresh price, name, image and stock; otherwise the line is appended.
 */
export function addToCart(items: CartItem[], item: CartItem): CartItem[] {
  const id = variantId(item.selectedColorsVariants);
  const existing = items.find((i) => sameLine(i, item.product, id));
  if (!existing) return [...items, { ...item, qty: clampQty(item.qty, item.countInStock) }];
  return items.map((i) =>
    i === existing ? { ...item, qty: clampQty(existing.qty + item.qty, item.countInStock) } : i,
  );
}

export function setQty(items: CartItem[], productId: string, variant: string | null, qty: number): CartItem[] {
  return items.map((i) => (sameLine(i, productId, variant) ? { ...i, qty: clampQty(qty, i.countInStock) } : i));
}

export function removeFromCart(items: CartItem[], productId: string, variant: string | null): CartItem[] {
  return items.filter((i) => !sameLine(i, productId, variant));
}

export function itemCount(items: CartItem[]): number {
  return items.reduce((n, i) => n + i.qty, 0);
}

/** Items total in cents (integer arithmetic, no float drift). */
/** The cart summary's heading: "Subtotal (1 item)", "Subtotal (3 items)". */
export function subtotalLabel(count: number): string {
  return `Subtotal (${count} ${count === 1 ? 'item' : 'items'})`;
}

export function itemsTotalCents(items: CartItem[]): number {
  return items.reduce((sum, i) => sum + toCents(i.price) * i.qty, 0);
}

/**
 * Lines read back from storage: anything malformed is dropped rather than crashing the cart. Lines stored
 * before variants had their own stock and SKU read as drawing on the product's stock, without a SKU.
 */
export function parseCartItems(raw: unknown): CartItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((r): CartItem[] => {
    if (!r || typeof r !== 'object') return [];
    const i = r as Record<string, unknown>;
    if (typeof i.product !== 'string' || typeof i.name !== 'string' || typeof i.price !== 'number') return [];
    const v = i.selectedColorsVariants as Record<string, unknown> | null | undefined;
    const variant: ColorVariant | null =
      v && typeof v === 'object' && typeof v._id === 'string'
        ? {
            _id: v._id,
            name: String(v.name ?? ''),
            src: String(v.src ?? ''),
            price: typeof v.price === 'number' ? v.price : null,
            countInStock:
              typeof v.countInStock === 'number' && Number.isInteger(v.countInStock) && v.countInStock >= 0
                ? v.countInStock
                : null,
            sku: typeof v.sku === 'string' ? v.sku : '',
          }
        : null;
    const stock = typeof i.countInStock === 'number' && Number.isFinite(i.countInStock) ? i.countInStock : 0;
    return [
      {
        product: i.product,
        name: i.name,
        image: typeof i.image === 'string' ? i.image : '',
        price: i.price,
        countInStock: stock,
        selectedColorsVariants: variant,
        qty: clampQty(typeof i.qty === 'number' ? i.qty : 1, stock),
        ...(typeof i.slug === 'string' ? { slug: i.slug } : {}),
      },
    ];
  });
}
