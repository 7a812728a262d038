import Offcanvas from 'react-bootstrap/Offcanvas';
import { Link } from 'react-router';
import { paths } from '#web/lib/paths.ts';
import type { CategoryTree } from './CategoryMenu.tsx';

interface CategoryDrawerProps {
  show: boolean;
  onHide: () => void;
  tree: CategoryTree[];
  loading: boolean;
  failed: boolean;
  onNavigate: () => void;
}

/** The category menu at phone and tablet widths: a drawer from the left, children under their root. */
export default function CategoryDrawer({ show, onHide, tree, loading, failed, onNavigate }: CategoryDrawerProps) {
  return (
    <Offcanvas show={show} onHide={onHide} placement="start" aria-labelledby="category-drawer-title">
      <Offcanvas.Header closeButton closeLabel="Close categories">
        <Offcanvas.Title id="category-drawer-title" as="h2" className="h5">
          Categories
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body>
        {loading ? (
          <p className="text-body-secondary">Loading…</p>
        ) : failed ? (
          <p className="text-danger">Categories could not be loaded</p>
        ) : tree.length === 0 ? (
          <p className="text-body-secondary">No categories yet</p>
        ) : (
          <nav aria-label="Categories">
            <ul className="list-unstyled mb-0">
              {tree.map(({ root, children }) => (
                <li key={root._id} className="mb-2">
                  <Link to={paths.category(root.slug)} onClick={onNavigate} className="fw-semibold d-block py-1">
                    {root.name}
                  </Link>
                  {children.length > 0 && (
                    <ul className="list-unstyled ps-3">
                      {children.map((c) => (
                        <li key={c._id}>
                          <Link to={paths.category(c.slug)} onClick={onNavigate} className="d-block py-1">
                            {c.name}
                          </Link>
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        )}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
