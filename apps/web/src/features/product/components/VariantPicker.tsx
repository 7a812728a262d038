import { formatMoney, stockFor, type Product } from '@store/shared';
import { ProductImage } from '#web/components/ProductImage.tsx';

interface VariantPickerProps {
  product: Pick<Product, 'countInStock' | 'colorsVariants'>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  invalid?: boolean;
}

/**
 * Colour / variant buttons (aria-pressed); a variant with its own price shows it. A variant with nothing
 * left says so on its button (and in its name) and can still be chosen, to see it.
 */
export function VariantPicker({ product, selectedId, onSelect, invalid = false }: VariantPickerProps) {
  const variants = product.colorsVariants;
  const selected = variants.find((v) => v._id === selectedId);
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-2">
        Colour: <span className="fw-semibold">{selected ? selected.name : 'choose one'}</span>
      </legend>
      <div className="d-flex flex-wrap gap-2" role="group" aria-describedby={invalid ? 'variant-error' : undefined}>
        {variants.map((v) => {
          const soldOut = stockFor(product, v) <= 0;
          const price = typeof v.price === 'number' ? formatMoney(v.price) : null;
          return (
            <button
              key={v._id}
              type="button"
              className={`btn variant-btn${v._id === selectedId ? ' btn-primary' : ''}${soldOut ? ' variant-sold-out' : ''}`}
              aria-pressed={v._id === selectedId}
              aria-label={soldOut ? `${v.name}, out of stock${price ? `, ${price}` : ''}` : undefined}
              data-testid="variant-option"
              onClick={() => onSelect(v._id)}
            >
              {v.src && (
                <ProductImage src={v.src} alt="" width={24} height={24} sizes="24px" className="variant-swatch" />
              )}
              <span className="variant-text">
                <span className="variant-name">
                  <span>{v.name}</span>
                  {price && <span className="variant-price">{price}</span>}
                </span>
                {soldOut && <span className="variant-stock">Out of stock</span>}
              </span>
            </button>
          );
        })}
      </div>
      {invalid && (
        <div id="variant-error" className="text-danger small mt-2" role="alert">
          Please choose a colour.
        </div>
      )}
    </fieldset>
  );
}
