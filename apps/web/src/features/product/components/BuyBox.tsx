import { formatMoney, type ColorVariant, type Product } from '@store/shared';
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { CartIcon, CheckIcon, TruckIcon } from '#web/components/icons.tsx';
import { VariantPicker } from './VariantPicker.tsx';

interface BuyBoxProps {
  product: Product;
  variant: ColorVariant | null;
  onVariant: (id: string) => void;
  onAdd: (qty: number) => void;
}

/** Price, shipping, stock, colour, quantity and Add To Cart, beside the product's gallery. */
export function BuyBox({ product, variant, onVariant, onAdd }: BuyBoxProps) {
  const [qty, setQty] = useState(1);
  const [needVariant, setNeedVariant] = useState(false);
  const qtyId = useId();
  const inStock = product.countInStock > 0;
  const price = variant?.price ?? product.price;
  const hasVariants = product.colorsVariants.length > 0;

  const add = () => {
    if (hasVariants && !variant) {
      setNeedVariant(true);
      return;
    }
    onAdd(Math.min(qty, product.countInStock));
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
        <li className="d-flex align-items-center gap-2">
          {inStock ? (
            <>
              <CheckIcon className="text-success" /> <span className="text-success-emphasis fw-semibold">In Stock</span>
            </>
          ) : (
            <span className="badge text-bg-secondary">Out Of Stock</span>
          )}
        </li>
      </ul>

      {hasVariants && (
        <VariantPicker
          variants={product.colorsVariants}
          selectedId={variant?._id ?? null}
          invalid={needVariant && !variant}
          onSelect={(id) => {
            setNeedVariant(false);
            onVariant(id);
          }}
        />
      )}

      {inStock && (
        <Form.Group className="mb-3 qty-group" controlId={qtyId}>
          <Form.Label>Quantity</Form.Label>
          <Form.Select value={qty} onChange={(e) => setQty(Number(e.target.value))}>
            {Array.from({ length: product.countInStock }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
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
