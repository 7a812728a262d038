import { FILTER_DEBOUNCE_MS, type AdminUser } from '@store/shared';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { Paginate } from '#web/components/Paginate.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { emptyFilters, useDeleteUser, useUserCount, useUserList, type UserFilters } from '../api.ts';
import { paths } from '#web/lib/paths.ts';

const TEXT_FILTERS: [keyof UserFilters, string][] = [
  ['id', 'ID'],
  ['firstName', 'First Name'],
  ['lastName', 'Last Name'],
  ['username', 'Username'],
  ['email', 'Email'],
];

const Check = ({ on }: { on: boolean }) => (
  <>
    <span className={on ? 'text-success' : 'text-danger-emphasis'} aria-hidden="true">
      {on ? '✓' : '✗'}
    </span>
    <span className="visually-hidden">{on ? 'Yes' : 'No'}</span>
  </>
);

export default function UserListPage() {
  useDocumentTitle('Users');
  const me = useAuth((s) => s.userInfo?._id);
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  const [filters, setFilters] = useState<UserFilters>(emptyFilters);
  const applied = useDebounced(filters, FILTER_DEBOUNCE_MS);
  const list = useUserList(applied, page);
  const count = useUserCount();
  const remove = useDeleteUser();

  const setFilter = (key: keyof UserFilters, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    if (page !== 1) setSearch({}, { replace: true });
  };

  const onDelete = (u: AdminUser) => {
    if (window.confirm('Are you sure?')) remove.mutate(u._id);
  };

  const users = list.data?.users ?? [];
  const actions = (u: AdminUser) => (
    <div className="d-flex gap-2">
      <Link
        to={paths.adminUserEdit(u._id)}
        className="btn btn-sm btn-outline-primary"
        aria-label={`Edit ${u.username}`}
      >
        Edit
      </Link>
      {u._id !== me && (
        <button
          type="button"
          className="btn btn-sm btn-danger"
          onClick={() => onDelete(u)}
          disabled={remove.isPending}
          aria-label={`Delete ${u.username}`}
        >
          Delete
        </button>
      )}
    </div>
  );

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0">Users</h1>
        <div className="card text-center px-4 py-2" data-testid="total-users">
          <div className="small text-body-secondary">Total Users</div>
          <div className="fs-4 fw-bold">{count.data?.count ?? '…'}</div>
        </div>
      </div>

      <form className="row g-2 mb-3" role="search" aria-label="Filter users" onSubmit={(e) => e.preventDefault()}>
        {TEXT_FILTERS.map(([key, label]) => (
          <div className="col-6 col-md-4 col-xl-2" key={key}>
            <label htmlFor={`filter-${key}`} className="form-label small mb-1">
              {label}
            </label>
            <input
              id={`filter-${key}`}
              className="form-control form-control-sm"
              value={filters[key]}
              onChange={(e) => setFilter(key, e.target.value)}
              autoComplete="off"
            />
          </div>
        ))}
        <div className="col-6 col-md-4 col-xl-2">
          <label htmlFor="filter-isAdmin" className="form-label small mb-1">
            Admin
          </label>
          <select
            id="filter-isAdmin"
            className="form-select form-select-sm"
            value={filters.isAdmin}
            onChange={(e) => setFilter('isAdmin', e.target.value)}
          >
            <option value="">All</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
        </div>
      </form>

      {remove.error && <Message variant="danger">{remove.error.message}</Message>}
      {list.error ? (
        <Message variant="danger">{list.error.message || 'Failed to load users'}</Message>
      ) : !list.data ? (
        <Loader />
      ) : (
        <>
          <p className="text-body-secondary" aria-live="polite" data-testid="showing">
            Showing {users.length} of {list.data.total}
          </p>
          <div className="d-none d-lg-block table-responsive">
            <table className="table table-striped table-hover table-sm align-middle user-table">
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">NAME</th>
                  <th scope="col">USERNAME</th>
                  <th scope="col">EMAIL</th>
                  <th scope="col">ADMIN</th>
                  <th scope="col">ACTIVE</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {users.map((u) => (
                  <tr key={u._id} data-testid="user-row">
                    <td className="font-monospace small">{u._id}</td>
                    <td>
                      {u.firstName} {u.lastName}
                    </td>
                    <td>{u.username}</td>
                    <td>
                      <a href={`mailto:${u.email}`}>{u.email}</a>
                    </td>
                    <td>
                      <Check on={u.isAdmin} />
                    </td>
                    <td>
                      <Check on={u.isActive} />
                    </td>
                    <td>{actions(u)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="d-lg-none list-unstyled d-grid gap-3 user-cards">
            {users.map((u) => (
              <li key={u._id} className="card" data-testid="user-card">
                <div className="card-body">
                  <h2 className="h6 card-title mb-1">
                    {u.firstName} {u.lastName} <span className="text-body-secondary">@{u.username}</span>
                  </h2>
                  <p className="mb-1 text-break">
                    <a href={`mailto:${u.email}`}>{u.email}</a>
                  </p>
                  <p className="mb-2 small font-monospace text-break">{u._id}</p>
                  <p className="mb-2 small">
                    Admin: <Check on={u.isAdmin} /> · Active: <Check on={u.isActive} />
                  </p>
                  {actions(u)}
                </div>
              </li>
            ))}
          </ul>
          <Paginate page={list.data.page} pages={list.data.pages} href={paths.adminUsersPage} />
        </>
      )}
    </>
  );
}
