import { formatMoney, type ColorVariant } from '@store/shared';
import { ProductImage } from '#web/components/ProductImage.tsx';

interface VariantPickerProps {
  variants: ColorVariant[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  invalid?: boolean;
}

/** Colour / variant buttons (aria-pressed); a variant with its own price shows it. */
export function VariantPicker({ variants, selectedId, onSelect, invalid = false }: VariantPickerProps) {
  const selected = variants.find((v) => v._id === selectedId);
  return (
    <fieldset className="mb-3">
      <legend className="form-label fs-6 mb-2">
        Colour: <span className="fw-semibold">{selected ? selected.name : 'choose one'}</span>
      </legend>
      <div className="d-flex flex-wrap gap-2" role="group" aria-describedby={invalid ? 'variant-error' : undefined}>
        {variants.map((v) => (
          <button
            key={v._id}
            type="button"
            className={`btn variant-btn${v._id === selectedId ? ' btn-primary' : ''}`}
            aria-pressed={v._id === selectedId}
            onClick={() => onSelect(v._id)}
          >
            {v.src && (
              <ProductImage src={v.src} alt="" width={24} height={24} sizes="24px" className="variant-swatch" />
            )}
            <span>{v.name}</span>
            {typeof v.price === 'number' && <span className="variant-price">{formatMoney(v.price)}</span>}
          </button>
        ))}
      </div>
      {invalid && (
        <div id="variant-error" className="text-danger small mt-2" role="alert">
          Please choose a colour.
        </div>
      )}
    </fieldset>
  );
}
