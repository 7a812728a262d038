import { formatMoney, isSoldOut, stockFor, type ColorVariant, type Product } from '@store/shared';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { CartIcon, CheckIcon, TruckIcon } from '#web/components/icons.tsx';
import { QtyInput } from '#web/components/QtyInput.tsx';
import { qtyMax } from '#web/lib/cart-logic.ts';
import { VariantPicker } from './VariantPicker.tsx';

/** At most this many units left: the page says how many. */
const FEW_LEFT = 5;

interface BuyBoxProps {
  product: Product;
  variant: ColorVariant | null;
  onVariant: (id: string) => void;
  onAdd: (qty: number) => void;
}

/**
 * Price, shipping, stock, colour, quantity and Add To Cart, beside the product's gallery. Stock follows
 * the chosen variant (its own, or the product's it draws on); before a colour is chosen, the product is
 * in stock while any variant can be bought, and the quantity goes up to the largest variant's stock.
 */
export function BuyBox({ product, variant, onVariant, onAdd }: BuyBoxProps) {
  const [qty, setQty] = useState(1);
  const [needVariant, setNeedVariant] = useState(false);
  const qtyId = useId();
  const price = variant?.price ?? product.price;
  const hasVariants = product.colorsVariants.length > 0;
  const choosing = hasVariants && !variant;
  const stock = choosing
    ? Math.max(...product.colorsVariants.map((v) => stockFor(product, v)))
    : stockFor(product, variant);
  const inStock = choosing ? !isSoldOut(product) : stock > 0;
  const max = qtyMax(stock);
  const shownQty = Math.min(qty, max);

  const add = () => {
    if (choosing) {
      setNeedVariant(true);
      return;
    }
    onAdd(Math.min(shownQty, stock));
  };

  return (
    <div className="buy-box">
      <p className="product-price mb-2" id="product-price" aria-live="polite">
        <span className="visually-hidden">Price: </span>
        {formatMoney(price)}
      </p>
      <ul className="list-unstyled small mb-3 d-grid gap-1">
        <li className="d-flex align-items-center gap-2">
          <TruckIcon />{' '}
          <span>
            Shipping Cost: <strong>Free</strong>
          </span>
        </li>
        {product.shippingMethod && (
          <li className="text-body-secondary ps-4 ms-1">Ships via {product.shippingMethod}</li>
        )}
        <li className="d-flex flex-wrap align-items-center gap-2" aria-live="polite" data-testid="stock-status">
          {inStock ? (
            <>
              <CheckIcon className="text-success" /> <span className="text-success-emphasis fw-semibold">In Stock</span>
              {!choosing && stock <= FEW_LEFT && (
                <span className="text-danger-emphasis fw-semibold" data-testid="few-left">
                  Only {stock} left
                </span>
              )}
            </>
          ) : (
            <span className="badge text-bg-secondary">Out Of Stock</span>
          )}
        </li>
      </ul>

      {hasVariants && (
        <VariantPicker
          product={product}
          selectedId={variant?._id ?? null}
          invalid={needVariant && !variant}
          onSelect={(id) => {
            setNeedVariant(false);
            onVariant(id);
          }}
        />
      )}

      {inStock && (
        <div className="mb-3 qty-group">
          <label htmlFor={qtyId} className="form-label">
            Quantity
          </label>
          <QtyInput id={qtyId} value={shownQty} max={max} onChange={setQty} />
        </div>
      )}

      <Button
        variant="primary"
        size="lg"
        className="w-100 d-flex align-items-center justify-content-center gap-2"
        disabled={!inStock}
        onClick={add}
      >
        <CartIcon /> Add To Cart
      </Button>
    </div>
  );
}
