import { Link } from 'react-router';
import { paths } from '#web/lib/paths.ts';

export function Footer() {
  return (
    <footer className="site-footer mt-auto">
      <div className="container d-flex flex-column flex-sm-row align-items-center justify-content-between gap-2 py-4">
        <p className="mb-0 small">© {new Date().getFullYear()} Store. All rights reserved.</p>
        <Link to={paths.contact} className="small">
          Contact Us
        </Link>
      </div>
    </footer>
  );
}
