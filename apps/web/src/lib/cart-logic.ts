import { toCents, type ColorVariant, type Product } from '@store/shared';

/** A cart line. Identity is the product plus the variant. */
export interface CartItem {
  product: string;
  name: string;
  image: string;
  price: number;
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

const clampQty = (qty: number, stock: number) => Math.max(1, Math.min(Math.floor(qty) || 1, Math.max(stock, 1)));

/** The line a product (and optional variant) makes: a variant's own price and image win. */
export function lineFor(product: Product, variant: ColorVariant | null, qty: number): CartItem {
  return {
    product: product._id,
    slug: product.slug,
    name: product.name,
    image: variant?.src || product.image,
    price: variant?.price ?? product.price,
    countInStock: product.countInStock,
    selectedColorsVariants: variant,
    qty: clampQty(qty, product.countInStock),
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
export function itemsTotalCents(items: CartItem[]): number {
  return items.reduce((sum, i) => sum + toCents(i.price) * i.qty, 0);
}

/** Lines read back from storage: anything malformed is dropped rather than crashing the cart. */
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
          }
        : null;
    const stock = typeof i.countInStock === 'number' ? i.countInStock : 0;
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
