/**
 * Which stock a purchase draws on. A colour variant with its own `countInStock` sells from it alone;
 * a variant with `null` (and a product bought without a variant) sells from the product's own stock.
 */
interface StockVariant {
  _id: string;
  countInStock?: number | null;
}
interface StockProduct {
  countInStock: number;
  colorsVariants: readonly StockVariant[];
}

/** Units left for the product bought as this variant (or with none). */
export function stockFor(product: StockProduct, variant: StockVariant | string | null | undefined): number {
  const id = typeof variant === 'string' ? variant : variant?._id;
  const found = id ? product.colorsVariants.find((v) => v._id === id) : undefined;
  return Math.max(0, found?.countInStock ?? product.countInStock);
}

/**
 * Nothing of the product can be bought: without variants its stock is 0; with variants (a shopper
 * picks one) every variant's stock, its own or the product's it draws on, is 0.
 */
export function isSoldOut(product: StockProduct): boolean {
  if (product.colorsVariants.length === 0) return product.countInStock <= 0;
  return product.colorsVariants.every((v) => stockFor(product, v) <= 0);
}
