import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { ApiError } from '#web/lib/api.ts';
import { categoryQuery } from '#web/lib/catalog.ts';
import { paths } from '#web/lib/paths.ts';
import { BrowseList } from '../components/BrowseList.tsx';

function pageParam(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** /category/{slug} and /category/{slug}/page/{n}: the category's products and its children's, filtered. */
export default function CategoryPage() {
  const params = useParams();
  const slug = (params.slug ?? '').toLowerCase();
  const pageNumber = pageParam(params.pageNumber);
  const { data: category, isPending, isError, error } = useQuery(categoryQuery(slug));
  useDocumentTitle(
    category
      ? `${category.name}${pageNumber > 1 ? `, page ${pageNumber}` : ''}`
      : isError
        ? 'Category not found'
        : null,
  );

  if (isPending) return <Loader label="Loading category…" />;
  if (isError)
    return (
      <Message variant={error instanceof ApiError && error.status === 404 ? 'info' : 'danger'}>
        {error instanceof ApiError && error.status === 404 ? 'Category not found.' : error.message}{' '}
        <Link to={paths.home} className="alert-link">
          Browse all products
        </Link>
      </Message>
    );

  return (
    <BrowseList
      heading={category.name}
      category={category.slug}
      pageNumber={pageNumber}
      pageHref={(n) => paths.category(category.slug, n)}
      before={
        <nav aria-label="Breadcrumb">
          <ol className="breadcrumb small mb-3">
            <li className="breadcrumb-item">
              <Link to={paths.home}>Home</Link>
            </li>
            {category.parent && (
              <li className="breadcrumb-item">
                <Link to={paths.category(category.parent.slug)}>{category.parent.name}</Link>
              </li>
            )}
            <li className="breadcrumb-item active" aria-current="page">
              {category.name}
            </li>
          </ol>
        </nav>
      }
    />
  );
}
