import { RECIPIENTS_MAX, type Recipient } from '@store/shared';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { useRecipients } from '../api.ts';

const DEBOUNCE_MS = 300;

/**
 * Admin recipient picker: a combobox whose suggestions (users and contact senders, at most 50)
 * come from a debounced server-side search; arrow keys move, Enter picks, Escape closes.
 */
export function RecipientSearch({
  selected,
  onSelect,
  error,
}: {
  selected: Recipient | null;
  onSelect: (r: Recipient | null) => void;
  error?: string;
}) {
  const [text, setText] = useState(selected?.label ?? '');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();

  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);

  const { data = [], isFetching } = useRecipients(q, open);
  // only answers for what is typed now: Enter never picks from a list of an older search
  const settled = q === text.trim() && !isFetching;
  const items = settled ? data.slice(0, RECIPIENTS_MAX) : [];

  const pick = (r: Recipient) => {
    onSelect(r);
    setText(r.label);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((i) => (items.length ? (i + 1) % items.length : -1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => (items.length ? (i <= 0 ? items.length - 1 : i - 1) : -1));
    } else if (e.key === 'Enter') {
      if (open && active >= 0 && items[active]) {
        e.preventDefault();
        pick(items[active]);
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="mb-3 position-relative recipient-search">
      <label htmlFor={`${listId}-input`} className="form-label">
        Recipient
      </label>
      <input
        id={`${listId}-input`}
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder="Search users or contact e-mails..."
        className={`form-control${error ? ' is-invalid' : ''}`}
        aria-expanded={open && items.length > 0}
        aria-controls={`${listId}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-opt-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${listId}-error` : undefined}
        value={text}
        maxLength={100}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(-1);
          if (selected) onSelect(null);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      {error && (
        <div id={`${listId}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
      <ul
        id={`${listId}-list`}
        role="listbox"
        aria-label="Recipient suggestions"
        className="list-group position-absolute w-100 shadow recipient-suggestions"
        hidden={!open || items.length === 0}
      >
        {items.map((r, i) => (
          <li
            key={`${r.kind}:${r.id}`}
            id={`${listId}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            className={`list-group-item list-group-item-action${i === active ? ' active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(r);
            }}
          >
            {r.label}
          </li>
        ))}
      </ul>
      {open && settled && q && items.length === 0 && <div className="form-text">No matches.</div>}
    </div>
  );
}
