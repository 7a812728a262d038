import { ProductCard, type CardProduct } from './ProductCard.tsx';

interface ProductGridProps {
  items: { key: string; product: CardProduct }[];
  label: string;
}

/** Responsive card grid: 2 columns on phones, 3 on tablets, 4 from 992 px. */
export function ProductGrid({ items, label }: ProductGridProps) {
  return (
    <ul className="product-grid list-unstyled" aria-label={label}>
      {items.map(({ key, product }, i) => (
        <li key={key}>
          <ProductCard product={product} eager={i < 4} />
        </li>
      ))}
    </ul>
  );
}
