import { useMemo, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { Paginate } from '#web/components/Paginate.tsx';
import { paths } from '#web/lib/paths.ts';
import { useProducts } from '../api.ts';
import { cleared, filtersQuery, filtersSearch, isFiltered, parseFilters, type ListFilters } from '../filters.ts';
import { FilterPanel, SortPicker } from './FilterPanel.tsx';
import { ProductGrid } from './ProductGrid.tsx';

interface BrowseListProps {
  heading: string;
  keyword?: string;
  /** A category's slug. */
  category?: string;
  pageNumber: number;
  /** The address of a page of this list, without the query (the filters are added to it). */
  pageHref: (page: number) => string;
  /** Shown above the heading (a breadcrumb, a back link). */
  before?: ReactNode;
}

/**
 * A list of products with the filter panel and sort picker, their state in the address's query: a change
 * is a new history entry on page 1, so back and forward step through the shopper's choices and a reload or
 * a shared link shows the same list.
 */
export function BrowseList({ heading, keyword, category, pageNumber, pageHref, before }: BrowseListProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const filters = useMemo(() => parseFilters(location.search), [location.search]);
  const [drawer, setDrawer] = useState(false);
  const { data, isPending, isError, error, isPlaceholderData } = useProducts({
    keyword,
    category,
    pageNumber,
    filters: filtersQuery(filters).toString(),
  });
  const search = filtersSearch(filters);
  const change = (next: ListFilters) => navigate(pageHref(1) + filtersSearch(next));
  const activeCount =
    filters.brands.length +
    (filters.minPrice !== undefined || filters.maxPrice !== undefined ? 1 : 0) +
    (filters.inStock ? 1 : 0) +
    (filters.minRating !== undefined ? 1 : 0);

  return (
    <>
      {before}
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0 text-break">{heading}</h1>
        <p className="small text-body-secondary mb-0" role="status">
          {data && data.total > 0
            ? `${data.total} ${data.total === 1 ? 'product' : 'products'}${data.pages > 1 ? ` · page ${data.page} of ${data.pages}` : ''}`
            : ''}
        </p>
      </div>
      <div className="row g-4">
        <div className="col-lg-3">
          <FilterPanel
            facets={data?.facets}
            filters={filters}
            onChange={change}
            show={drawer}
            onHide={() => setDrawer(false)}
          />
        </div>
        <div className="col-lg-9">
          <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
            <button
              type="button"
              className="btn btn-outline-secondary btn-sm d-lg-none"
              onClick={() => setDrawer(true)}
              aria-haspopup="dialog"
            >
              Filters{activeCount > 0 ? ` (${activeCount})` : ''}
            </button>
            <div className="ms-auto">
              <SortPicker value={filters.sort} onChange={(sort) => change({ ...filters, sort })} />
            </div>
          </div>
          {data?.suggestion && (
            <p className="mb-3" data-testid="search-suggestion">
              Showing results for <strong>{data.suggestion}</strong>
            </p>
          )}
          {isPending ? (
            <Loader label="Loading products…" />
          ) : isError ? (
            <Message variant="danger">{error.message}</Message>
          ) : data.products.length === 0 ? (
            isFiltered(filters) ? (
              <Message>
                No products match these filters.{' '}
                <button
                  type="button"
                  className="btn btn-link alert-link p-0 align-baseline"
                  onClick={() => change(cleared(filters))}
                >
                  Clear filters
                </button>
              </Message>
            ) : (
              <Message>
                No products found.{' '}
                <Link to={paths.home} className="alert-link">
                  Browse all products
                </Link>
              </Message>
            )
          ) : (
            <div aria-busy={isPlaceholderData} className={isPlaceholderData ? 'opacity-50' : undefined}>
              <ProductGrid items={data.products.map((p) => ({ key: p._id, product: p }))} label={heading} />
              <Paginate page={data.page} pages={data.pages} href={(n) => pageHref(n) + search} />
            </div>
          )}
        </div>
      </div>
    </>
  );
}
