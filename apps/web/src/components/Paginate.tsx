import { Link } from 'react-router';

interface PaginateProps {
  page: number;
  pages: number;
  /** Link of a page number, e.g. keeps the search keyword. */
  href: (page: number) => string;
}

/** Page numbers with the current one, its neighbours, the ends, and ellipses between. */
export function pageWindow(page: number, pages: number, around = 1): (number | 'gap')[] {
  const out: (number | 'gap')[] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= around) out.push(n);
    else if (out[out.length - 1] !== 'gap') out.push('gap');
  }
  return out;
}

export function Paginate({ page, pages, href }: PaginateProps) {
  if (pages <= 1) return null;
  const item = (n: number, label: string, text: string, disabled: boolean) => (
    <li className={`page-item${disabled ? ' disabled' : ''}`}>
      {disabled ? (
        <span className="page-link" aria-hidden="true">
          {text}
        </span>
      ) : (
        <Link className="page-link" to={href(n)} aria-label={label}>
          {text}
        </Link>
      )}
    </li>
  );
  return (
    <nav aria-label="Pages" className="d-flex justify-content-center my-4">
      <ul className="pagination flex-wrap mb-0">
        {item(page - 1, 'Previous page', '‹', page <= 1)}
        {pageWindow(page, pages).map((n, i) =>
          n === 'gap' ? (
            <li key={`gap${i}`} className="page-item disabled">
              <span className="page-link">…</span>
            </li>
          ) : (
            <li key={n} className={`page-item${n === page ? ' active' : ''}`}>
              <Link
                className="page-link"
                to={href(n)}
                aria-current={n === page ? 'page' : undefined}
                aria-label={`Page ${n}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        {item(page + 1, 'Next page', '›', page >= pages)}
      </ul>
    </nav>
  );
}
