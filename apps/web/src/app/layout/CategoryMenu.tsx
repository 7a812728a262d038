import { useQueries, useQuery } from '@tanstack/react-query';
import type { Category } from '@store/shared';
import { lazy, Suspense, useState } from 'react';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { Link } from 'react-router';
import { categoryChildrenQuery, categoryRootsQuery } from '#web/lib/catalog.ts';
import { paths } from '#web/lib/paths.ts';

// the phone drawer loads when first opened, so the storefront's first load does not carry it
const CategoryDrawer = lazy(() => import('./CategoryDrawer.tsx'));

export interface CategoryTree {
  root: Category;
  children: Category[];
}

/** Root categories with their children, read when the menu is first opened. */
export function useCategoryTree(enabled: boolean): { tree: CategoryTree[]; loading: boolean; failed: boolean } {
  const roots = useQuery({ ...categoryRootsQuery, enabled });
  const parents = (roots.data ?? []).filter((c) => c.hasChildren);
  const children = useQueries({ queries: parents.map((c) => ({ ...categoryChildrenQuery(c._id), enabled })) });
  const byParent = new Map(parents.map((c, i) => [c._id, children[i]?.data ?? []]));
  return {
    tree: (roots.data ?? []).map((root) => ({ root, children: byParent.get(root._id) ?? [] })),
    loading: roots.isPending || children.some((c) => c.isPending),
    failed: roots.isError,
  };
}

/**
 * The header's category menu: a dropdown from `lg` up (children under their root), a drawer below it.
 * `onNavigate` closes the collapsed navbar.
 */
export function CategoryMenu({ onNavigate }: { onNavigate: () => void }) {
  const [opened, setOpened] = useState(false);
  const [drawer, setDrawer] = useState(false);
  const { tree, loading, failed } = useCategoryTree(opened);

  return (
    <>
      <NavDropdown
        id="category-menu"
        title="Categories"
        className="d-none d-lg-block"
        onToggle={(show) => show && setOpened(true)}
        onMouseEnter={() => setOpened(true)}
        onFocus={() => setOpened(true)}
      >
        {loading ? (
          <NavDropdown.ItemText className="text-body-secondary small">Loading…</NavDropdown.ItemText>
        ) : failed ? (
          <NavDropdown.ItemText className="text-danger small">Categories could not be loaded</NavDropdown.ItemText>
        ) : tree.length === 0 ? (
          <NavDropdown.ItemText className="text-body-secondary small">No categories yet</NavDropdown.ItemText>
        ) : (
          tree.map(({ root, children }) => (
            <div key={root._id}>
              <NavDropdown.Item as={Link} to={paths.category(root.slug)} onClick={onNavigate} className="fw-semibold">
                {root.name}
              </NavDropdown.Item>
              {children.map((c) => (
                <NavDropdown.Item
                  key={c._id}
                  as={Link}
                  to={paths.category(c.slug)}
                  onClick={onNavigate}
                  className="ps-4"
                >
                  {c.name}
                </NavDropdown.Item>
              ))}
            </div>
          ))
        )}
      </NavDropdown>
      <div className="nav-item d-lg-none py-1">
        <button
          type="button"
          className="btn btn-link nav-link px-0"
          aria-haspopup="dialog"
          onClick={() => {
            setOpened(true);
            setDrawer(true);
          }}
        >
          Categories
        </button>
      </div>
      {opened && (
        <Suspense fallback={null}>
          <CategoryDrawer
            show={drawer}
            onHide={() => setDrawer(false)}
            tree={tree}
            loading={loading}
            failed={failed}
            onNavigate={() => {
              setDrawer(false);
              onNavigate();
            }}
          />
        </Suspense>
      )}
    </>
  );
}
