import type { AdminUser, AdminUserUpdateInput, MessageResponse, UserListResponse } from '@store/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';

export interface UserFilters {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  isAdmin: '' | 'true' | 'false';
}

export const emptyFilters: UserFilters = { id: '', firstName: '', lastName: '', username: '', email: '', isAdmin: '' };

export function useUserList(filters: UserFilters, pageNumber: number) {
  return useQuery({
    queryKey: ['admin-users', 'list', filters, pageNumber],
    queryFn: () => api<UserListResponse>(`/api/users${qs({ ...trimmed(filters), pageNumber, pageSize: 20 })}`),
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
