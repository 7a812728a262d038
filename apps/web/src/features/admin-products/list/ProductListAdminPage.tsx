import { FILTER_DEBOUNCE_MS, formatMoney, type ProductSummary } from '@store/shared';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  AMOUNT,
  FilterForm,
  ListResults,
  TableHead,
  TextFilters,
  type TextFilter,
} from '#web/components/AdminList.tsx';
import { DownloadButton } from '#web/components/DownloadButton.tsx';
import { Message } from '#web/components/Message.tsx';
import { ProductImage } from '#web/components/ProductImage.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useDebounced } from '#web/lib/use-debounced.ts';
import {
  emptyProductFilters,
  useAdminProductList,
  useAliexpressStatus,
  useConnectAliexpress,
  useCreateProduct,
  useDeleteProduct,
  type ProductFilters,
} from './api.ts';
import { CsvImportModal } from './CsvImportModal.tsx';
import { useExportProducts } from './csv-api.ts';
import { paths } from '#web/lib/paths.ts';

const FILTERS: TextFilter<keyof ProductFilters>[] = [
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

/* Pieces the admin list pages share (products here, orders in admin-orders/OrderListPage.tsx). */

function BuyLink({ p }: { p: ProductSummary }) {
  if (!isWebLink(p.purchaseLink)) return <span className="text-body-secondary">—</span>;
  return (
    <a
      href={p.purchaseLink}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Buy ${p.name} (opens in a new tab)`}
    >
      Buy
    </a>
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

export default function ProductListAdminPage() {
  useDocumentTitle('Products');
  const navigate = useNavigate();
  const params = useParams();
  const page = Math.max(1, Math.floor(Number(params.pageNumber)) || 1);
  const [filters, setFilters] = useState<ProductFilters>(emptyProductFilters);
  const applied = useDebounced(filters, FILTER_DEBOUNCE_MS);
  const list = useAdminProductList(applied, page);
  const create = useCreateProduct();
  const remove = useDeleteProduct();
  const connect = useConnectAliexpress();
  const aliexpress = useAliexpressStatus();
  const exportCsv = useExportProducts();
  const [importOpen, setImportOpen] = useState(false);

  const setFilter = (key: keyof ProductFilters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    if (page !== 1) void navigate(paths.adminProducts, { replace: true });
  };

  const onCreate = () => create.mutate(undefined, { onSuccess: (p) => void navigate(paths.adminProductEdit(p._id)) });

  const onDelete = (p: ProductSummary) => {
    if (window.confirm('Are you sure?')) remove.mutate(p._id);
  };

  const products = list.data?.products ?? [];
  const actions = (p: ProductSummary) => (
    <div className="d-flex gap-2">
      <Link to={paths.adminProductEdit(p._id)} className="btn btn-sm btn-outline-primary" aria-label={`Edit ${p.name}`}>
        Edit
      </Link>
      <button
        type="button"
        className="btn btn-sm btn-danger"
        onClick={() => onDelete(p)}
        disabled={remove.isPending}
        aria-label={`Delete ${p.name}`}
      >
        Delete
      </button>
    </div>
  );
  // a fixed box, so that the 'No image' tile of a product without one stays thumbnail-sized too
  const thumb = (p: ProductSummary) => (
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
      {remove.error && <Message variant="danger">{remove.error.message}</Message>}

      <FilterForm label="Filter products">
        <TextFilters fields={FILTERS} values={filters} onChange={setFilter} />
      </FilterForm>

      <ListResults list={list} shown={products.length} noun="products" href={paths.adminProductsPage}>
        <div className="d-none d-lg-block table-responsive position-relative">
          <table className="table table-striped table-hover table-sm align-middle">
            <TableHead
              columns={[{ hidden: 'Image' }, 'NAME', 'PRICE', 'BUY', 'CATEGORY', 'BRAND', { hidden: 'Actions' }]}
            />
            <tbody>
              {products.map((p) => (
                <tr key={p._id} data-testid="product-row" data-id={p._id}>
                  <td>{thumb(p)}</td>
                  <td className="text-break">{p.name}</td>
                  <td className="text-nowrap">{formatMoney(p.price)}</td>
                  <td>
                    <BuyLink p={p} />
                  </td>
                  <td>{p.category}</td>
                  <td>{p.brand}</td>
                  <td>{actions(p)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ul className="d-lg-none list-unstyled d-grid gap-3">
          {products.map((p) => (
            <li key={p._id} className="card" data-testid="product-card" data-id={p._id}>
              <div className="card-body d-flex gap-3">
                {thumb(p)}
                <div className="flex-grow-1" style={{ minWidth: 0 }}>
                  <h2 className="h6 card-title mb-1 text-break">{p.name}</h2>
                  <p className="mb-1">
                    <strong>{formatMoney(p.price)}</strong> · <BuyLink p={p} />
                  </p>
                  <p className="mb-2 small text-body-secondary text-break">
                    {[p.category, p.brand].filter(Boolean).join(' · ')}
                  </p>
                  {actions(p)}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </ListResults>
    </>
  );
}
