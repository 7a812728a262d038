import type { SortDir } from '#web/lib/list-params.ts';

/**
 * A column heading that sorts its list: a button naming the column and what a click does, with `aria-sort`
 * telling screen readers how the list is sorted now.
 */
export function SortableTh({
  label,
  active,
  dir,
  onSort,
  className,
}: {
  label: string;
  /** The list is sorted by this column. */
  active: boolean;
  dir: SortDir;
  onSort: () => void;
  className?: string;
}) {
  const next = active && dir === 'asc' ? 'descending' : active ? 'ascending' : 'this column';
  return (
    <th scope="col" className={className} aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button
        type="button"
        className="btn btn-link p-0 fw-bold text-reset text-decoration-none text-nowrap sort-button"
        onClick={onSort}
        title={`Sort by ${label.toLowerCase()}${active ? `, ${next}` : ''}`}
      >
        {label}
        <span aria-hidden="true" className={`ms-1 ${active ? '' : 'opacity-25'}`}>
          {active && dir === 'asc' ? '▲' : '▼'}
        </span>
        <span className="visually-hidden">
          {active ? `, sorted ${dir === 'asc' ? 'ascending' : 'descending'}` : ', sortable'}
        </span>
      </button>
    </th>
  );
}
