import type { InputHTMLAttributes, ReactNode } from 'react';
import { Loader } from './Loader.tsx';
import { Message } from './Message.tsx';
import { Paginate } from './Paginate.tsx';

// The pieces every admin list shares (products, orders): filter row, table head, results with paging.

/** A money amount's input (prices, order totals). */
export const AMOUNT = { type: 'number', min: 0, step: '0.01', inputMode: 'decimal' } as const;

/** The filter row of a list: typing filters (debounced by the page), so there is nothing to submit. */
export function FilterForm({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form className="row g-2 mb-3" role="search" aria-label={label} onSubmit={(e) => e.preventDefault()}>
      {children}
    </form>
  );
}

/** One labelled control of a list's filter row. */
export function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="col-6 col-md-4 col-xl">
      <label htmlFor={id} className="form-label small mb-1 text-nowrap">
        {label}
      </label>
      {children}
    </div>
  );
}

/** A text (or number, date) filter: its key in the filters, its label and the input's type and range. */
export type TextFilter<K extends string> = { key: K; label: string } & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'min' | 'step' | 'inputMode'
>;

interface TextFiltersProps<K extends string> {
  fields: TextFilter<K>[];
  values: Record<K, string>;
  onChange: (key: K, value: string) => void;
}

/** Labelled text (or number, date) filters, ids `filter-{key}`. */
export function TextFilters<K extends string>({ fields, values, onChange }: TextFiltersProps<K>) {
  return fields.map(({ key, label, ...input }) => (
    <FilterField key={key} id={`filter-${key}`} label={label}>
      <input
        id={`filter-${key}`}
        className="form-control form-control-sm"
        autoComplete="off"
        value={values[key]}
        onChange={(e) => onChange(key, e.target.value)}
        {...input}
      />
    </FilterField>
  ));
}

/** Column headings; `{ hidden }` is a heading for screen readers only (an image or a buttons column). */
export function TableHead({ columns }: { columns: (string | { hidden: string })[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th scope="col" key={c}>
              {c}
            </th>
          ) : (
            <th scope="col" key={c.hidden}>
              <span className="visually-hidden">{c.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}

interface ListResultsProps {
  /** The list's query. */
  list: { error: Error | null; data?: { page: number; pages: number; total: number } };
  /** Rows on this page. */
  shown: number;
  /** e.g. 'products': 'Loading products…', 'No products found'. */
  noun: string;
  href: (page: number) => string;
  children: ReactNode;
}

/** A filtered, paged list's states: error, loading, nothing found, or 'Showing x of y' with the rows and pages. */
export function ListResults({ list: { error, data }, shown, noun, href, children }: ListResultsProps) {
  if (error) return <Message variant="danger">{error.message}</Message>;
  if (!data) return <Loader label={`Loading ${noun}…`} />;
  return (
    <>
      {shown === 0 ? (
        <Message>No {noun} found</Message>
      ) : (
        <>
          <p className="text-body-secondary" aria-live="polite" data-testid="showing">
            Showing {shown} of {data.total}
          </p>
          {children}
        </>
      )}
      <Paginate page={data.page} pages={data.pages} href={href} />
    </>
  );
}
