import { formatMoney } from '@store/shared';
import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { Link } from 'react-router';
import { TrashIcon } from '#web/components/icons.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import type { CartItem } from '#web/lib/cart-logic.ts';
import { paths } from '#web/lib/paths.ts';

interface CartLineProps {
  item: CartItem;
  onQty: (qty: number) => void;
  onRemove: () => void;
}

export function CartLine({ item, onQty, onRemove }: CartLineProps) {
  const qtyId = useId();
  const variant = item.selectedColorsVariants;
  const max = Math.max(item.countInStock, item.qty);
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
        {item.countInStock <= 0 && <div className="small text-danger">Out of stock</div>}
        <div className="fw-semibold mt-1">{formatMoney(item.price)}</div>
      </div>
      <div className="cart-line-actions">
        <label htmlFor={qtyId} className="visually-hidden">
          Quantity of {item.name}
          {variant ? `, ${variant.name}` : ''}
        </label>
        <Form.Select
          id={qtyId}
          size="sm"
          value={item.qty}
          disabled={item.countInStock <= 0}
          onChange={(e) => onQty(Number(e.target.value))}
          className="cart-qty"
        >
          {Array.from({ length: max }, (_, i) => (
            <option key={i + 1} value={i + 1}>
              {i + 1}
            </option>
          ))}
        </Form.Select>
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
