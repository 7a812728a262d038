import type { AppliedCoupon } from '@store/shared';
import { useRef, useState, type FormEvent } from 'react';

interface CouponFieldProps {
  /** The applied code, or null. */
  coupon: AppliedCoupon | null;
  /** Why the last code typed, or the applied one, does not apply. */
  error: string | null;
  applying: boolean;
  /** Nothing to apply a code to (an empty cart). */
  disabled?: boolean;
  /** Applies the typed code; answers whether it applied. */
  onApply: (code: string) => Promise<boolean>;
  onRemove: () => void;
  /** The shopper edits the code: an earlier reason no longer stands. */
  onEdit: () => void;
}

export const ENTER_CODE = 'Enter a discount code';

/**
 * 'Discount code' with Apply (Enter applies too) and, once a code applies, the code with Remove. The
 * reason a code does not apply, and what changed, are announced from the line under the field.
 */
export function CouponField({ coupon, error, applying, disabled, onApply, onRemove, onEdit }: CouponFieldProps) {
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const [status, setStatus] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const message = missing ? ENTER_CODE : error;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setStatus('');
    const code = text.trim();
    setMissing(!code);
    if (!code || applying || disabled) return;
    if (await onApply(code)) {
      setText('');
      setStatus(`Discount code ${code.toUpperCase()} applied.`);
    }
  };

  const remove = () => {
    onRemove();
    setMissing(false);
    setStatus('Discount code removed.');
    // the Remove button goes away with the code: focus goes back to the field
    input.current?.focus();
  };

  return (
    <form className="mt-3" onSubmit={(e) => void submit(e)} noValidate data-testid="coupon-form">
      <label htmlFor="coupon-code" className="form-label">
        Discount code
      </label>
      <div className="input-group">
        <input
          ref={input}
          id="coupon-code"
          name="couponCode"
          className={`form-control${message ? ' is-invalid' : ''}`}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setMissing(false);
            if (error) onEdit();
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          aria-invalid={message ? true : undefined}
          aria-describedby="coupon-feedback"
        />
        <button type="submit" className="btn btn-outline-primary" disabled={applying || disabled}>
          {applying ? 'Applying…' : 'Apply'}
        </button>
      </div>
      <div id="coupon-feedback" className="small mt-1" aria-live="polite">
        {message ? (
          <span className="text-danger-emphasis" data-testid="coupon-error">
            {message}
          </span>
        ) : (
          status && <span className="visually-hidden">{status}</span>
        )}
      </div>
      {coupon && (
        <div className="d-flex align-items-center justify-content-between gap-2 mt-2" data-testid="coupon-applied">
          <span id="coupon-applied-code">
            Code <strong className="font-monospace">{coupon.code}</strong> applied
          </span>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            onClick={remove}
            aria-describedby="coupon-applied-code"
          >
            Remove
          </button>
        </div>
      )}
    </form>
  );
}
