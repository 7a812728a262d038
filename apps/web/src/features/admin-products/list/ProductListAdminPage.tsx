import {
  FILTER_DEBOUNCE_MS,
  LOW_STOCK_DEFAULT,
  PRODUCT_MESSAGES,
  TOAST_MS,
  formatMoney,
  type AdminProductRow,
  type AdminProductSort,
  type ProductBulkInput,
} from '@store/shared';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  AMOUNT,
  FilterField,
  FilterForm,
  ListResults,
  TextFilters,
  type TextFilter,
} from '#web/components/AdminList.tsx';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { DownloadButton } from '#web/components/DownloadButton.tsx';
import { Message } from '#web/components/Message.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { failureText } from '#web/lib/api.ts';
import { paths } from '#web/lib/paths.ts';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { CategoryPicker } from '../edit/CategoryPicker.tsx';
import {
  firstOrder,
  fromSearch,
  toSearch,
  useAdminProductList,
  useAliexpressStatus,
  useBulkProducts,
  useConnectAliexpress,
  useCreateProduct,
  useDeleteProduct,
  type ProductFilters,
  type ProductSort,
} from './api.ts';
import { CsvImportModal } from './CsvImportModal.tsx';
import { useExportProducts } from './csv-api.ts';

const FILTERS: TextFilter<Exclude<keyof ProductFilters, 'status'>>[] = [
  { key: 'id', label: 'ID' },
  { key: 'name', label: 'Name' },
  { key: 'category', label: 'Category' },
  { key: 'brand', label: 'Brand' },
  { key: 'sku', label: 'SKU' },
  { key: 'minPrice', label: 'Min Price', ...AMOUNT },
  { key: 'maxPrice', label: 'Max Price', ...AMOUNT },
];

/** Only web addresses become links (a stored value is never trusted as a script URL). */
const isWebLink = (href: string) => /^https?:\/\//i.test(href);

/** The supplier's purchase page (where the merchant buys the item), never a storefront button. */
function SupplierLink({ p }: { p: AdminProductRow }) {
  if (!isWebLink(p.purchaseLink)) return <span className="text-body-secondary">—</span>;
  return (
    <a
      href={p.purchaseLink}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Supplier's page for ${p.name} (opens in a new tab)`}
    >
      Supplier<span aria-hidden="true"> ↗</span>
    </a>
  );
}

function StatusBadge({ status }: { status: AdminProductRow['status'] }) {
  return status === 'draft' ? (
    <span className="badge text-bg-secondary" title="Shoppers do not see it">
      Draft
    </span>
  ) : (
    <span className="badge text-bg-success">Active</span>
  );
}

function Stock({ p }: { p: AdminProductRow }) {
  return (
    <span className="text-nowrap" data-testid="product-stock">
      {p.stock}
      {p.lowStock && (
        <span className="badge text-bg-warning ms-1" title={`Low stock: ${LOW_STOCK_DEFAULT} or fewer left`}>
          Low<span className="visually-hidden"> stock</span>
        </span>
      )}
    </span>
  );
}

/** Where AliExpress's OAuth callback sends the admin back (?aliexpress=connected|error). */
function OAuthReturn() {
  const [search] = useSearchParams();
  const result = search.get('aliexpress');
  if (result === 'connected') return <Message variant="success">AliExpress connected.</Message>;
  if (result === 'error') return <Message variant="danger">Unable to connect AliExpress. Please try again.</Message>;
  return null;
}

/** A column heading that sorts the list on the server; a second click reverses the order. */
function SortHeader({
  label,
  column,
  sort,
  onSort,
}: {
  label: string;
  column: AdminProductSort;
  sort: ProductSort;
  onSort: (column: AdminProductSort) => void;
}) {
  const active = sort.sortBy === column;
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className="text-nowrap">
      <button
        type="button"
        className="btn btn-link btn-sm p-0 fw-semibold text-reset text-decoration-none"
        onClick={() => onSort(column)}
      >
        {label}
        <span aria-hidden="true" className="ms-1 text-body-secondary">
          {active ? (sort.order === 'asc' ? '▲' : '▼') : '↕'}
        </span>
        <span className="visually-hidden">{active ? `, sorted ${ariaSort}; click to reverse` : ', click to sort'}</span>
      </button>
    </th>
  );
}

type Pending =
  { kind: 'delete-one'; product: AdminProductRow } | { kind: 'bulk'; action: ProductBulkInput['action'] } | null;

const BULK_LABELS: Record<ProductBulkInput['action'], { title: string; verb: string; button: string }> = {
  activate: { title: 'Publish', verb: 'Publish', button: 'Publish' },
  draft: { title: 'Set to draft', verb: 'Take out of the shop (set to draft)', button: 'Set to draft' },
  category: { title: 'Change category', verb: 'Move to another category', button: 'Change category' },
  delete: { title: 'Delete', verb: 'Delete', button: 'Delete' },
};

const plural = (n: number) => `${n} product${n === 1 ? '' : 's'}`;

export default function ProductListAdminPage() {
  useDocumentTitle('Products');
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const page = Math.max(1, Math.floor(Number(params.pageNumber)) || 1);
  const [search] = useSearchParams();
  // the address holds the filters, the sort and (in the path) the page: a list can be shared and reloaded
  const fromAddress = useMemo(() => fromSearch(search), [search]);
  const sort = fromAddress.sort;
  const [filters, setFilters] = useState<ProductFilters>(fromAddress.filters);
  const applied = useDebounced(filters, FILTER_DEBOUNCE_MS);
  const written = useRef(location.search);

  // typed filters reach the address once typing pauses (page 1); back and forward bring theirs back
  useEffect(() => {
    const next = toSearch(applied, sort);
    if (next === toSearch(fromAddress.filters, sort)) return;
    written.current = next;
    void navigate(`${paths.adminProducts}${next}`, { replace: true });
    // only a new debounced value writes the address (the sort and the address are read as they are then)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [applied]);
  useEffect(() => {
    if (location.search === written.current) return;
    written.current = location.search;
    setFilters(fromAddress.filters);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.search]);

  const list = useAdminProductList(fromAddress.filters, sort, page);
  const create = useCreateProduct();
  const remove = useDeleteProduct();
  const bulk = useBulkProducts();
  const connect = useConnectAliexpress();
  const aliexpress = useAliexpressStatus();
  const exportCsv = useExportProducts();
  const [importOpen, setImportOpen] = useState(false);
  const [toast, setToast] = useState<ToastContent | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [category, setCategory] = useState<string | null>(null);
  const [categoryError, setCategoryError] = useState<string | null>(null);
  // selected rows by id, with their names (the confirmation names them)
  const [selected, setSelected] = useState<Map<string, string>>(new Map());

  const products = list.data?.products ?? [];
  const listKey = `${page}${location.search}`;
  // another page, filter or sort starts a new selection
  useEffect(() => setSelected(new Map()), [listKey]);

  const setFilter = (key: keyof ProductFilters, value: string) => setFilters((f) => ({ ...f, [key]: value }));
  const onSort = (column: AdminProductSort) => {
    const order = sort.sortBy === column ? (sort.order === 'asc' ? 'desc' : 'asc') : firstOrder(column);
    const next = toSearch(filters, { sortBy: column, order });
    written.current = next;
    void navigate(`${paths.adminProducts}${next}`);
  };
  const pageHref = (n: number) => `${paths.adminProductsPage(n)}${location.search}`;

  const onCreate = () => create.mutate(undefined, { onSuccess: (p) => void navigate(paths.adminProductEdit(p._id)) });

  const toggle = (p: AdminProductRow) =>
    setSelected((s) => {
      const next = new Map(s);
      if (!next.delete(p._id)) next.set(p._id, p.name);
      return next;
    });
  const allOnPage = products.length > 0 && products.every((p) => selected.has(p._id));
  const toggleAll = () => setSelected(allOnPage ? new Map() : new Map(products.map((p) => [p._id, p.name])));

  const close = () => {
    setPending(null);
    setCategory(null);
    setCategoryError(null);
    remove.reset();
    bulk.reset();
  };
  const confirm = () => {
    if (!pending) return;
    if (pending.kind === 'delete-one') {
      const p = pending.product;
      remove.mutate(p._id, {
        onSuccess: () => {
          close();
          setSelected((s) => {
            const next = new Map(s);
            next.delete(p._id);
            return next;
          });
          setToast({ title: 'Products', body: `${PRODUCT_MESSAGES.removed}: ${p.name}`, variant: 'success' });
        },
      });
      return;
    }
    if (pending.action === 'category' && category === null) {
      setCategoryError(PRODUCT_MESSAGES.bulkCategory);
      return;
    }
    bulk.mutate(
      {
        ids: [...selected.keys()],
        action: pending.action,
        ...(pending.action === 'category' ? { category: category || null } : {}),
      },
      {
        onSuccess: (res) => {
          close();
          setSelected(new Map());
          setToast({ title: 'Products', body: res.message, variant: 'success' });
        },
      },
    );
  };

  const names = [...selected.values()];
  const confirmError =
    pending?.kind === 'delete-one'
      ? remove.error && failureText(remove.error, 'Delete failed.')
      : bulk.error && failureText(bulk.error, 'Update failed.');

  const rowActions = (p: AdminProductRow) => (
    <div className="d-flex gap-2">
      <Link to={paths.adminProductEdit(p._id)} className="btn btn-sm btn-outline-primary" aria-label={`Edit ${p.name}`}>
        Edit
      </Link>
      <button
        type="button"
        className="btn btn-sm btn-danger"
        onClick={() => {
          close();
          setPending({ kind: 'delete-one', product: p });
        }}
        aria-label={`Delete ${p.name}`}
      >
        Delete
      </button>
    </div>
  );
  const checkbox = (p: AdminProductRow) => (
    <input
      type="checkbox"
      className="form-check-input"
      checked={selected.has(p._id)}
      onChange={() => toggle(p)}
      aria-label={`Select ${p.name}`}
    />
  );
  // a fixed box, so that the 'No image' tile of a product without one stays thumbnail-sized too
  const thumb = (p: AdminProductRow) => (
    <span className="d-block flex-shrink-0 small" style={{ width: 64 }}>
      <ProductImage
        src={p.image}
        alt=""
        width={64}
        height={48}
        sizes="64px"
        className="rounded"
        style={{ objectFit: 'cover', width: 64, height: 48 }}
      />
    </span>
  );
  const skus = (p: AdminProductRow) =>
    p.skus.length ? <span className="small text-break">{p.skus.join(', ')}</span> : <span aria-label="none">—</span>;

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0">Products</h1>
        <div className="d-flex flex-wrap align-items-center gap-2">
          {aliexpress.data?.connected && (
            <span className="small text-body-secondary" data-testid="aliexpress-status">
              AliExpress connected{aliexpress.data.account ? ` as ${aliexpress.data.account}` : ''}
            </span>
          )}
          <button
            type="button"
            className="btn btn-outline-primary"
            onClick={() => connect.mutate()}
            disabled={connect.isPending}
          >
            {connect.isPending ? 'Connecting…' : 'Connect AliExpress'}
          </button>
          <DownloadButton pending={exportCsv.isPending} onClick={() => exportCsv.mutate()}>
            Export CSV
          </DownloadButton>
          <button type="button" className="btn btn-outline-secondary" onClick={() => setImportOpen(true)}>
            Import CSV
          </button>
          <button type="button" className="btn btn-primary" onClick={onCreate} disabled={create.isPending}>
            {create.isPending ? (
              'Creating…'
            ) : (
              <>
                <span aria-hidden="true">+ </span>Create Product
              </>
            )}
          </button>
        </div>
      </div>

      <CsvImportModal show={importOpen} onHide={() => setImportOpen(false)} />

      <OAuthReturn />
      {connect.error && <Message variant="danger">{connect.error.message}</Message>}
      {create.error && <Message variant="danger">{create.error.message}</Message>}
      {exportCsv.error && <Message variant="danger">{exportCsv.error.message}</Message>}

      <FilterForm label="Filter products">
        <TextFilters fields={FILTERS} values={filters} onChange={setFilter} />
        <FilterField id="filter-status" label="Status">
          <select
            id="filter-status"
            className="form-select form-select-sm"
            value={filters.status}
            onChange={(e) => setFilter('status', e.target.value)}
          >
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="draft">Draft</option>
          </select>
        </FilterField>
      </FilterForm>

      <div
        className="d-flex flex-wrap align-items-center gap-2 mb-3 p-2 border rounded bg-body-tertiary"
        role="toolbar"
        aria-label="Bulk actions on the selected products"
      >
        <div className="form-check mb-0 me-2">
          <input
            id="select-all"
            type="checkbox"
            className="form-check-input"
            checked={allOnPage}
            onChange={toggleAll}
            disabled={products.length === 0}
          />
          <label htmlFor="select-all" className="form-check-label small">
            Select all on this page
          </label>
        </div>
        <span className="small text-body-secondary me-auto" aria-live="polite" data-testid="selected-count">
          {selected.size === 0 ? 'No products selected' : `${plural(selected.size)} selected`}
        </span>
        {(['activate', 'draft', 'category', 'delete'] as const).map((action) => (
          <button
            key={action}
            type="button"
            className={`btn btn-sm ${action === 'delete' ? 'btn-outline-danger' : 'btn-outline-primary'}`}
            disabled={selected.size === 0}
            onClick={() => {
              close();
              setPending({ kind: 'bulk', action });
            }}
          >
            {BULK_LABELS[action].button}
            {action === 'delete' && <span className="visually-hidden"> selected products</span>}
          </button>
        ))}
      </div>

      <ListResults list={list} shown={products.length} noun="products" href={pageHref}>
        <div className="d-none d-lg-block table-responsive position-relative">
          <table className="table table-striped table-hover table-sm align-middle">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Select</span>
                </th>
                <th scope="col">
                  <span className="visually-hidden">Image</span>
                </th>
                <SortHeader label="NAME" column="name" sort={sort} onSort={onSort} />
                <th scope="col">SKU</th>
                <SortHeader label="PRICE" column="price" sort={sort} onSort={onSort} />
                <SortHeader label="STOCK" column="stock" sort={sort} onSort={onSort} />
                <SortHeader label="STATUS" column="status" sort={sort} onSort={onSort} />
                <th scope="col">CATEGORY</th>
                <SortHeader label="BRAND" column="brand" sort={sort} onSort={onSort} />
                <th scope="col">SUPPLIER LINK</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {products.map((p) => (
                <tr key={p._id} data-testid="product-row" data-id={p._id}>
                  <td>{checkbox(p)}</td>
                  <td>{thumb(p)}</td>
                  <td className="text-break" data-testid="product-name">
                    <Link to={paths.adminProductEdit(p._id)} className="text-reset">
                      {p.name}
                    </Link>
                  </td>
                  <td>{skus(p)}</td>
                  <td className="text-nowrap">{formatMoney(p.price)}</td>
                  <td>
                    <Stock p={p} />
                  </td>
                  <td>
                    <StatusBadge status={p.status} />
                  </td>
                  <td>{p.category}</td>
                  <td>{p.brand}</td>
                  <td>
                    <SupplierLink p={p} />
                  </td>
                  <td>{rowActions(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="d-lg-none mb-2">
          <label htmlFor="sort-small" className="form-label small mb-1">
            Sort by
          </label>
          <select
            id="sort-small"
            className="form-select form-select-sm"
            value={`${sort.sortBy}:${sort.order}`}
            onChange={(e) => {
              const [sortBy, order] = e.target.value.split(':') as [AdminProductSort, 'asc' | 'desc'];
              const next = toSearch(filters, { sortBy, order });
              written.current = next;
              void navigate(`${paths.adminProducts}${next}`);
            }}
          >
            <option value="createdAt:desc">Newest first</option>
            <option value="createdAt:asc">Oldest first</option>
            <option value="name:asc">Name, A to Z</option>
            <option value="name:desc">Name, Z to A</option>
            <option value="price:asc">Price, low to high</option>
            <option value="price:desc">Price, high to low</option>
            <option value="stock:asc">Stock, low to high</option>
            <option value="stock:desc">Stock, high to low</option>
            <option value="status:asc">Active first</option>
            <option value="status:desc">Drafts first</option>
            <option value="brand:asc">Brand, A to Z</option>
            <option value="brand:desc">Brand, Z to A</option>
          </select>
        </div>
        <ul className="d-lg-none list-unstyled d-grid gap-3">
          {products.map((p) => (
            <li key={p._id} className="card" data-testid="product-card" data-id={p._id}>
              <div className="card-body d-flex gap-3">
                <div className="pt-1">{checkbox(p)}</div>
                {thumb(p)}
                <div className="flex-grow-1" style={{ minWidth: 0 }}>
                  <h2 className="h6 card-title mb-1 text-break">
                    {p.name} <StatusBadge status={p.status} />
                  </h2>
                  <p className="mb-1">
                    <strong>{formatMoney(p.price)}</strong> · Stock <Stock p={p} /> · <SupplierLink p={p} />
                  </p>
                  <p className="mb-2 small text-body-secondary text-break">
                    {[p.category, p.brand, p.skus.join(', ')].filter(Boolean).join(' · ')}
                  </p>
                  {rowActions(p)}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </ListResults>

      <ConfirmDialog
        show={pending !== null}
        title={
          pending?.kind === 'delete-one'
            ? `Delete ${pending.product.name}?`
            : pending
              ? `${BULK_LABELS[pending.action].title}: ${plural(selected.size)}?`
              : ''
        }
        confirmLabel={pending?.kind === 'delete-one' ? 'Delete' : pending ? BULK_LABELS[pending.action].button : 'OK'}
        variant={
          pending?.kind === 'delete-one' || (pending?.kind === 'bulk' && pending.action === 'delete')
            ? 'danger'
            : 'primary'
        }
        busy={remove.isPending || bulk.isPending}
        error={confirmError}
        onConfirm={confirm}
        onCancel={close}
      >
        {pending?.kind === 'delete-one' ? (
          <p className="mb-0">
            Delete the product <strong>{pending.product.name}</strong>? Orders that contain it stay readable. This
            cannot be undone.
          </p>
        ) : pending ? (
          <>
            <p>
              {BULK_LABELS[pending.action].verb} {plural(names.length)}
              {pending.action === 'delete' ? ' (this cannot be undone)' : ''}:
            </p>
            <ul className="small text-break" data-testid="confirm-names">
              {names.slice(0, 15).map((n, i) => (
                <li key={i}>{n}</li>
              ))}
              {names.length > 15 && <li>and {names.length - 15} more</li>}
            </ul>
            {pending.action === 'category' && (
              <CategoryPicker
                value={category ?? ''}
                initialId=""
                currentName=""
                onChange={(id) => {
                  setCategory(id);
                  setCategoryError(null);
                }}
                error={categoryError ?? undefined}
              />
            )}
            <p className="small text-body-secondary mb-0">All of them change, or none do.</p>
          </>
        ) : null}
      </ConfirmDialog>
      <TimedToast toast={toast} delay={TOAST_MS.adminAction} onClose={() => setToast(null)} />
    </>
  );
}
