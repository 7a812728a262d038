import { SHOP_SORTS, formatMoney, type ProductFacets } from '@store/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import Offcanvas from 'react-bootstrap/Offcanvas';
import { cleared, isFiltered, toggleBrand, type ListFilters, type SortKey } from '../filters.ts';

interface FilterPanelProps {
  facets: ProductFacets | undefined;
  filters: ListFilters;
  onChange: (next: ListFilters) => void;
  /** The drawer's state at phone and tablet widths (from `lg` up the panel is a sidebar). */
  show: boolean;
  onHide: () => void;
}

const RATINGS = [4, 3, 2, 1] as const;

/**
 * Brand checkboxes with counts, a price range, in stock and a minimum rating. From `lg` up a sidebar; below
 * it an off-canvas drawer (opened by the page's "Filters" button) with a close button and focus kept inside.
 */
export function FilterPanel({ facets, filters: current, onChange: change, show, onHide }: FilterPanelProps) {
  const id = useId();
  // what the shopper just picked shows at once, before the address (and the list) follow
  const [filters, setFilters] = useState(current);
  useEffect(() => setFilters(current), [current]);
  const onChange = (next: ListFilters) => {
    setFilters(next);
    change(next);
  };
  const brands = facets?.brands ?? [];
  // brands ticked but matching nothing under the other filters stay listed, so they can be unticked
  const listed = [
    ...brands,
    ...filters.brands
      .filter((b) => !brands.some((x) => x.name.toLowerCase() === b.toLowerCase()))
      .map((name) => ({ name, count: 0 })),
  ];
  const ticked = (name: string) => filters.brands.some((b) => b.toLowerCase() === name.toLowerCase());

  return (
    <Offcanvas
      show={show}
      onHide={onHide}
      responsive="lg"
      placement="start"
      aria-labelledby={`${id}-title`}
      className="filter-panel"
    >
      <Offcanvas.Header closeButton closeLabel="Close filters">
        <Offcanvas.Title id={`${id}-title`} as="h2" className="h5">
          Filters
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="d-flex flex-column gap-3 p-3 p-lg-0">
        <h2 className="h6 d-none d-lg-block mb-0">Filters</h2>
        {isFiltered(filters) && (
          <button
            type="button"
            className="btn btn-outline-secondary btn-sm align-self-start"
            onClick={() => onChange(cleared(filters))}
          >
            Clear filters
          </button>
        )}
        <fieldset>
          <legend className="h6 fs-6">Brand</legend>
          {listed.length === 0 ? (
            <p className="small text-body-secondary mb-0">No brands to choose from.</p>
          ) : (
            listed.map((b, i) => (
              <div className="form-check" key={b.name}>
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={`${id}-brand-${i}`}
                  checked={ticked(b.name)}
                  onChange={() => onChange(toggleBrand(filters, b.name))}
                />
                <label className="form-check-label" htmlFor={`${id}-brand-${i}`}>
                  {b.name} <span className="text-body-secondary">({b.count})</span>
                </label>
              </div>
            ))
          )}
        </fieldset>
        <PriceRange facets={facets} filters={filters} onChange={onChange} />
        <fieldset>
          <legend className="h6 fs-6">Availability</legend>
          <div className="form-check">
            <input
              className="form-check-input"
              type="checkbox"
              id={`${id}-stock`}
              checked={filters.inStock}
              onChange={(e) => onChange({ ...filters, inStock: e.target.checked })}
            />
            <label className="form-check-label" htmlFor={`${id}-stock`}>
              In stock only
            </label>
          </div>
        </fieldset>
        <fieldset>
          <legend className="h6 fs-6">Rating</legend>
          {[...RATINGS, undefined].map((r) => (
            <div className="form-check" key={r ?? 'any'}>
              <input
                className="form-check-input"
                type="radio"
                name={`${id}-rating`}
                id={`${id}-rating-${r ?? 'any'}`}
                checked={filters.minRating === r}
                onChange={() => {
                  const { minRating: _r, ...rest } = filters;
                  onChange(r === undefined ? rest : { ...rest, minRating: r });
                }}
              />
              <label className="form-check-label" htmlFor={`${id}-rating-${r ?? 'any'}`}>
                {r === undefined ? 'Any rating' : `${r} stars & up`}
              </label>
            </div>
          ))}
        </fieldset>
      </Offcanvas.Body>
    </Offcanvas>
  );
}

/** Lowest and highest price, applied together (a number typed is not a search per keystroke). */
function PriceRange({ facets, filters, onChange }: Pick<FilterPanelProps, 'facets' | 'filters' | 'onChange'>) {
  const id = useId();
  const [min, setMin] = useState(filters.minPrice?.toString() ?? '');
  const [max, setMax] = useState(filters.maxPrice?.toString() ?? '');
  // the address changed (back, forward, clear): the boxes follow it
  useEffect(() => setMin(filters.minPrice?.toString() ?? ''), [filters.minPrice]);
  useEffect(() => setMax(filters.maxPrice?.toString() ?? ''), [filters.maxPrice]);
  const [error, setError] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const lo = min.trim() === '' ? undefined : Number(min);
    const hi = max.trim() === '' ? undefined : Number(max);
    if ((lo !== undefined && !(lo >= 0)) || (hi !== undefined && !(hi >= 0))) {
      setError('Enter prices of 0 or more');
      return;
    }
    if (lo !== undefined && hi !== undefined && lo > hi) {
      setError('The lowest price must not be more than the highest');
      return;
    }
    setError('');
    const { minPrice: _l, maxPrice: _h, ...rest } = filters;
    onChange({ ...rest, ...(lo !== undefined ? { minPrice: lo } : {}), ...(hi !== undefined ? { maxPrice: hi } : {}) });
  };
  const range = facets?.price;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-legend`}>
      <h3 id={`${id}-legend`} className="h6 fs-6">
        Price
      </h3>
      {range && range.min !== null && range.max !== null && (
        <p className="small text-body-secondary mb-2">
          {formatMoney(range.min)} – {formatMoney(range.max)}
        </p>
      )}
      <div className="d-flex gap-2 align-items-end">
        <div>
          <label className="form-label small mb-1" htmlFor={`${id}-min`}>
            Min ($)
          </label>
          <input
            id={`${id}-min`}
            className="form-control form-control-sm"
            inputMode="decimal"
            value={min}
            onChange={(e) => setMin(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <div>
          <label className="form-label small mb-1" htmlFor={`${id}-max`}>
            Max ($)
          </label>
          <input
            id={`${id}-max`}
            className="form-control form-control-sm"
            inputMode="decimal"
            value={max}
            onChange={(e) => setMax(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
        </div>
        <button type="submit" className="btn btn-outline-primary btn-sm">
          Apply
        </button>
      </div>
      {error && (
        <div id={`${id}-error`} className="small text-danger mt-1" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

/** The sort picker: newest, price low to high and high to low, rating, name. */
export function SortPicker({ value, onChange }: { value: SortKey; onChange: (key: SortKey) => void }) {
  const id = useId();
  return (
    <div className="d-flex align-items-center gap-2">
      <label htmlFor={id} className="small text-nowrap mb-0">
        Sort by
      </label>
      <select
        id={id}
        className="form-select form-select-sm"
        value={value}
        onChange={(e) => onChange(e.target.value as SortKey)}
      >
        {SHOP_SORTS.map((s) => (
          <option key={s.key} value={s.key}>
            {s.label}
          </option>
        ))}
      </select>
    </div>
  );
}
