import { useState, type InputHTMLAttributes } from 'react';
import { parseQty } from '#web/lib/cart-logic.ts';

interface QtyInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'value' | 'defaultValue' | 'onChange' | 'min' | 'max'
> {
  id: string;
  /** The quantity in force (1..max). */
  value: number;
  /** The highest quantity (the stock, capped by what one order line takes). */
  max: number;
  onChange: (qty: number) => void;
}

/**
 * A quantity as a number input: however large the stock, one element (a select would render an option
 * per unit). A typed number over `max` becomes `max` at once; text that is no quantity yet (empty, 0)
 * keeps the last good one, and leaving the field shows it again.
 */
export function QtyInput({ value, max, onChange, onBlur, className, ...input }: QtyInputProps) {
  // the text while typing; null: show `value`
  const [text, setText] = useState<string | null>(null);
  return (
    <input
      type="number"
      inputMode="numeric"
      min={1}
      max={max}
      step={1}
      className={`form-control${className ? ` ${className}` : ''}`}
      value={text ?? String(value)}
      onChange={(e) => {
        const qty = parseQty(e.target.value, max);
        if (qty === null) {
          setText(e.target.value);
          return;
        }
        setText(String(qty) === e.target.value.trim() ? e.target.value : String(qty));
        if (qty !== value) onChange(qty);
      }}
      onBlur={(e) => {
        setText(null);
        onBlur?.(e);
      }}
      {...input}
    />
  );
}
