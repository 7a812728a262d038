import { formatMoney } from '@store/shared';
import { useId } from 'react';
import { Link } from 'react-router';
import { TrashIcon } from '#web/components/icons.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { QtyInput } from '#web/components/QtyInput.tsx';
import { qtyMax, type CartItem } from '#web/lib/cart-logic.ts';
import { paths } from '#web/lib/paths.ts';

interface CartLineProps {
  item: CartItem;
  onQty: (qty: number) => void;
  onRemove: () => void;
}

/** A cart line; its quantity is capped by the stock of the pool it buys from (the variant's own, or the product's). */
export function CartLine({ item, onQty, onRemove }: CartLineProps) {
  const qtyId = useId();
  const variant = item.selectedColorsVariants;
  const soldOut = item.countInStock <= 0;
  return (
    <li className="cart-line">
      <Link to={paths.product(item.slug ?? item.product)} className="cart-line-media" tabIndex={-1} aria-hidden="true">
        <ProductImage src={item.image} alt="" width={96} height={72} sizes="96px" />
      </Link>
      <div className="cart-line-info">
        <Link to={paths.product(item.slug ?? item.product)} className="cart-line-name">
          {item.name}
        </Link>
        {variant && <div className="small text-body-secondary">Colour: {variant.name}</div>}
        {soldOut && <div className="small text-danger">Out of stock</div>}
        <div className="fw-semibold mt-1">{formatMoney(item.price)}</div>
      </div>
      <div className="cart-line-actions">
        <label htmlFor={qtyId} className="visually-hidden">
          Quantity of {item.name}
          {variant ? `, ${variant.name}` : ''}
        </label>
        <QtyInput
          id={qtyId}
          className="form-control-sm cart-qty"
          value={item.qty}
          max={qtyMax(item.countInStock)}
          disabled={soldOut}
          onChange={onQty}
        />
        <button
          type="button"
          className="btn btn-outline-danger btn-sm"
          onClick={onRemove}
          aria-label={`Remove ${item.name}${variant ? ` (${variant.name})` : ''} from cart`}
        >
          <TrashIcon size={16} />
        </button>
      </div>
    </li>
  );
}
