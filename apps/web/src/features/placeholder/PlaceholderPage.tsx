import { Link } from 'react-router';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { paths } from '#web/lib/paths.ts';

/** Stand-in for the pages other issues build. */
export default function PlaceholderPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <div className="py-5 text-center">
      <h1 className="h3 mb-4">{title}</h1>
      <Link to={paths.home} className="btn btn-primary">
        Back to the shop
      </Link>
    </div>
  );
}
