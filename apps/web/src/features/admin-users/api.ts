import type { AdminUser, AdminUserUpdateInput, MessageResponse, UserListResponse, UserSort } from '@store/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
import type { ListSort, SortDir } from '#web/lib/list-params.ts';

export const USER_SORT_KEYS: readonly UserSort[] = ['createdAt', 'username', 'name', 'email'];
export const DEFAULT_USER_SORT: ListSort<UserSort> = { by: 'createdAt', dir: 'desc' };
/** Dates newest first; text A to Z. */
export const userSortDir = (by: UserSort): SortDir => (by === 'createdAt' ? 'desc' : 'asc');

export type UserFilters = {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  isAdmin: '' | 'true' | 'false';
};

/** The filters an address names; the admin filter only as true or false. */
export function userFiltersFromSearch(search: URLSearchParams): UserFilters {
  const f = { ...emptyFilters };
  for (const key of ['id', 'firstName', 'lastName', 'username', 'email'] as const) f[key] = search.get(key) ?? '';
  const isAdmin = search.get('isAdmin');
  if (isAdmin === 'true' || isAdmin === 'false') f.isAdmin = isAdmin;
  return f;
}

/** GET /api/users's query: the trimmed filters, the sort (when not the default) and the page. */
export function userListQuery(filters: UserFilters, pageNumber: number, sort: ListSort<UserSort> = DEFAULT_USER_SORT) {
  const sorted =
    sort.by === DEFAULT_USER_SORT.by && sort.dir === DEFAULT_USER_SORT.dir ? {} : { sortBy: sort.by, order: sort.dir };
  return qs({ ...trimmed(filters), ...sorted, pageNumber, pageSize: 20 });
}

export const emptyFilters: UserFilters = { id: '', firstName: '', lastName: '', username: '', email: '', isAdmin: '' };

export function useUserList(filters: UserFilters, pageNumber: number, sort: ListSort<UserSort> = DEFAULT_USER_SORT) {
  return useQuery({
    queryKey: ['admin-users', 'list', filters, pageNumber, sort],
    queryFn: () => api<UserListResponse>(`/api/users${userListQuery(filters, pageNumber, sort)}`),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function trimmed(f: UserFilters): Record<string, string> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim()]));
}

export function useUserCount() {
  return useQuery({
    queryKey: ['admin-users', 'count'],
    queryFn: () => api<{ count: number }>('/api/users/count'),
    staleTime: 0,
  });
}

export function useAdminUser(id: string) {
  return useQuery({
    queryKey: ['admin-users', 'one', id],
    queryFn: () => api<AdminUser>(`/api/users/${id}`),
    staleTime: 0,
  });
}

export function useUpdateUser(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminUserUpdateInput) => api<AdminUser>(`/api/users/${id}`, { method: 'PUT', json: body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-users'] }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<MessageResponse>(`/api/users/${id}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['admin-users'] }),
  });
}
