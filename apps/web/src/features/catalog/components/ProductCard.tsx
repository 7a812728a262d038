import { cardName, formatMoney, isSoldOut, type ProductCardData, type ProductSummary } from '@store/shared';
import { memo } from 'react';
import { Link } from 'react-router';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { Rating } from '#web/components/Rating.tsx';
import { paths } from '#web/lib/paths.ts';

const SIZES = '(max-width: 767px) 50vw, (max-width: 991px) 33vw, (max-width: 1399px) 25vw, 320px';

/** A whole product of a list, or the card's fields only (the home grid's pages). */
export type CardProduct = ProductSummary | ProductCardData;

interface ProductCardProps {
  product: CardProduct;
  eager?: boolean;
}

/** Grid card: image, name cut to fit, rating, price; the whole card links to the product. */
export const ProductCard = memo(function ProductCard({ product, eager = false }: ProductCardProps) {
  const href = paths.product(product.slug);
  // sold out: nothing a shopper can pick (the product, or every variant's stock) is left
  const outOfStock = 'inStock' in product ? !product.inStock : isSoldOut(product);
  const from = 'fromPrice' in product ? product.fromPrice : lowestPrice(product);
  return (
    <article className="product-card card h-100">
      <div className="product-card-media">
        <ProductImage src={product.image} alt="" sizes={SIZES} loading={eager ? 'eager' : 'lazy'} />
        {outOfStock && <span className="badge text-bg-secondary product-card-badge">Out of stock</span>}
      </div>
      <div className="card-body d-flex flex-column gap-1">
        <h2 className="product-card-title">
          <Link to={href} className="stretched-link" title={product.name}>
            {cardName(product.name)}
          </Link>
        </h2>
        <Rating value={product.rating} text={`(${product.numReviews})`} className="small" />
        <p className="product-card-price mt-auto mb-0">
          {from < product.price && <span className="small text-body-secondary fw-normal">From </span>}
          {formatMoney(from)}
        </p>
      </div>
    </article>
  );
});

function lowestPrice(product: ProductSummary): number {
  const variantPrices = product.colorsVariants.map((v) => v.price).filter((p): p is number => typeof p === 'number');
  return variantPrices.length > 0 ? Math.min(product.price, ...variantPrices) : product.price;
}
