import { TOAST_MS, type AdminUser, type UserSort } from '@store/shared';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { SortableTh } from '#web/components/SortableTh.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { Paginate } from '#web/components/Paginate.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useListParams } from '#web/lib/list-params.ts';
import {
  DEFAULT_USER_SORT,
  USER_SORT_KEYS,
  emptyFilters,
  userFiltersFromSearch,
  userSortDir,
  useDeleteUser,
  useUserCount,
  useUserList,
  type UserFilters,
} from '../api.ts';
import { paths } from '#web/lib/paths.ts';
import { failureText } from '#web/lib/api.ts';

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
  const params = useListParams<UserFilters, UserSort>({
    empty: emptyFilters,
    sorts: USER_SORT_KEYS,
    defaultSort: DEFAULT_USER_SORT,
    naturalDir: userSortDir,
    parse: userFiltersFromSearch,
  });
  const { page, sort, filters, applied, setFilter } = params;
  const list = useUserList(applied, page, sort);
  const count = useUserCount();
  const remove = useDeleteUser();
  const [toDelete, setToDelete] = useState<AdminUser | null>(null);
  const [toast, setToast] = useState<ToastContent | null>(null);

  const onDelete = (u: AdminUser) => {
    remove.reset();
    setToDelete(u);
  };
  const confirmDelete = () => {
    const u = toDelete;
    if (!u) return;
    remove.mutate(u._id, {
      onSuccess: () => {
        setToDelete(null);
        setToast({ title: 'User deleted', body: `${u.username} was deleted.`, variant: 'success' });
      },
    });
  };
  const sortable = (by: UserSort, label: string) => (
    <SortableTh label={label} active={sort.by === by} dir={sort.dir} onSort={() => params.toggleSort(by)} />
  );

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
        <div className="col-6 col-md-4 col-xl-2">
          <label htmlFor="sort-users" className="form-label small mb-1">
            Sort by
          </label>
          <select
            id="sort-users"
            className="form-select form-select-sm"
            value={`${sort.by}:${sort.dir}`}
            onChange={(e) => {
              const [by, dir] = e.target.value.split(':') as [UserSort, 'asc' | 'desc'];
              params.setSort({ by, dir });
            }}
          >
            <option value="createdAt:desc">Newest first</option>
            <option value="createdAt:asc">Oldest first</option>
            <option value="username:asc">Username A–Z</option>
            <option value="username:desc">Username Z–A</option>
            <option value="name:asc">Name A–Z</option>
            <option value="name:desc">Name Z–A</option>
            <option value="email:asc">Email A–Z</option>
            <option value="email:desc">Email Z–A</option>
          </select>
        </div>
      </form>

      {list.error ? (
        <Message variant="danger">{failureText(list.error, 'Failed to load users')}</Message>
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
                  {sortable('name', 'NAME')}
                  {sortable('username', 'USERNAME')}
                  {sortable('email', 'EMAIL')}
                  {sortable('createdAt', 'JOINED')}
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
                    <td className="text-nowrap">{new Date(u.createdAt).toLocaleDateString()}</td>
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
          <Paginate page={list.data.page} pages={list.data.pages} href={params.href} />
        </>
      )}
      <ConfirmDialog
        show={toDelete !== null}
        title={`Delete user ${toDelete?.username ?? ''}?`}
        confirmLabel="Delete user"
        busy={remove.isPending}
        error={remove.error?.message}
        onConfirm={confirmDelete}
        onCancel={() => setToDelete(null)}
      >
        <p className="mb-0">
          {toDelete &&
            `${`${toDelete.firstName} ${toDelete.lastName}`.trim() || toDelete.username} (${toDelete.email})`}{' '}
          loses their account. This cannot be undone.
        </p>
      </ConfirmDialog>
      <TimedToast toast={toast} delay={TOAST_MS.adminAction} onClose={() => setToast(null)} />
    </>
  );
}
