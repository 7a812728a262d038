import { formatMoney, fromCents, toCents } from '@store/shared';
import { Link } from 'react-router';
import { ProductImage } from './ProductImage.tsx';
import { paths } from '../lib/paths.ts';

export interface ItemRow {
  key: string;
  product: string | null;
  name: string;
  image: string;
  price: number;
  qty: number;
  variantName?: string | null;
  slug?: string;
}

/** Lines of an order or of the cart being ordered: image, name, variant, qty × price = line total. */
export function OrderItemList({ items, label = 'Order Items' }: { items: ItemRow[]; label?: string }) {
  return (
    <section aria-labelledby="order-items-heading" className="mb-4">
      <h2 id="order-items-heading" className="h5">
        {label}
      </h2>
      {items.length === 0 ? (
        <p className="text-body-secondary">Your cart is empty.</p>
      ) : (
        <ul className="list-group" data-testid="order-items">
          {items.map((i) => (
            <li key={i.key} className="list-group-item d-flex align-items-center gap-3 flex-wrap order-item">
              <ProductImage
                src={i.image}
                alt=""
                width={64}
                height={48}
                className="rounded flex-shrink-0"
                style={{ objectFit: 'cover', width: 64, height: 48 }}
              />
              <div className="flex-grow-1" style={{ minWidth: 0 }}>
                {i.product ? (
                  <Link to={paths.product(i.slug ?? i.product)} className="text-break">
                    {i.name}
                  </Link>
                ) : (
                  <span className="text-break">{i.name}</span>
                )}
                {i.variantName && <div className="small text-body-secondary">Colour: {i.variantName}</div>}
              </div>
              <div className="text-nowrap" data-testid="order-item-total">
                {i.qty} x {formatMoney(i.price)} = {formatMoney(fromCents(toCents(i.price) * i.qty))}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
