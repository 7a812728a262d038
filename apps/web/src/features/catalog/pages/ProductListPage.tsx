import { Link, useParams } from 'react-router';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { paths } from '#web/lib/paths.ts';
import { BrowseList } from '../components/BrowseList.tsx';

function pageParam(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** /page/{n}, /search/{keyword} and /search/{keyword}/page/{n}, with filters and sort in the query. */
export default function ProductListPage() {
  const params = useParams();
  const keyword = (params.keyword ?? '').trim();
  const pageNumber = pageParam(params.pageNumber);
  useDocumentTitle(keyword ? `Search: ${keyword}` : `Products, page ${pageNumber}`);

  return (
    <BrowseList
      heading={keyword ? `Results for “${keyword}”` : 'All Products'}
      keyword={keyword || undefined}
      pageNumber={pageNumber}
      pageHref={(n) => (keyword ? paths.search(keyword, n) : paths.catalogPage(n))}
      before={
        keyword && (
          <Link to={paths.home} className="btn btn-outline-secondary btn-sm mb-3">
            ‹ Go Back
          </Link>
        )
      }
    />
  );
}
