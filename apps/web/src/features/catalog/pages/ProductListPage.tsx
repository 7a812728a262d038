import { Link, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { Paginate } from '#web/components/Paginate.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useProducts } from '../api.ts';
import { ProductGrid } from '../components/ProductGrid.tsx';
import { paths } from '#web/lib/paths.ts';

function pageParam(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** /page/{n}, /search/{keyword} and /search/{keyword}/page/{n}. */
export default function ProductListPage() {
  const params = useParams();
  const keyword = (params.keyword ?? '').trim();
  const pageNumber = pageParam(params.pageNumber);
  const { data, isPending, isError, error } = useProducts({ keyword: keyword || undefined, pageNumber });
  useDocumentTitle(keyword ? `Search: ${keyword}` : `Products, page ${pageNumber}`);

  const href = (n: number) => (keyword ? paths.search(keyword, n) : paths.catalogPage(n));
  const heading = keyword ? `Results for “${keyword}”` : 'All Products';

  return (
    <>
      {keyword && (
        <Link to={paths.home} className="btn btn-outline-secondary btn-sm mb-3">
          ‹ Go Back
        </Link>
      )}
      <div className="d-flex flex-wrap align-items-baseline justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0 text-break">{heading}</h1>
        {data && data.total > 0 && (
          <span className="small text-body-secondary">
            {data.total} {data.total === 1 ? 'product' : 'products'}
            {data.pages > 1 ? ` · page ${data.page} of ${data.pages}` : ''}
          </span>
        )}
      </div>
      {isPending ? (
        <Loader label="Loading products…" />
      ) : isError ? (
        <Message variant="danger">{error.message}</Message>
      ) : data.products.length === 0 ? (
        <Message>
          No products found.{' '}
          <Link to={paths.home} className="alert-link">
            Browse all products
          </Link>
        </Message>
      ) : (
        <>
          <ProductGrid items={data.products.map((p) => ({ key: p._id, product: p }))} label={heading} />
          <Paginate page={data.page} pages={data.pages} href={href} />
        </>
      )}
    </>
  );
}
