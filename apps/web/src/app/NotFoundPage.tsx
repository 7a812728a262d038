import { Link } from 'react-router';
import { useDocumentTitle } from '../components/use-document-title.ts';
import { paths } from '../lib/paths.ts';

export default function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="py-5 text-center">
      <h1 className="h3">Page not found</h1>
      <p className="text-body-secondary">The page you asked for does not exist.</p>
      <Link to={paths.home} className="btn btn-primary">
        Back to the shop
      </Link>
    </div>
  );
}
