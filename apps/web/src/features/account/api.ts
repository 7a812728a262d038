import type {
  AuthUser,
  ChangePasswordInput,
  LoginInput,
  MessageResponse,
  ProfileInput,
  RegisterInput,
  RegisterResponse,
  User,
} from '@store/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';

type ProfileAnswer = User & { token?: string; message?: string };

/** Keeps the answer as the stored user info (a registered user's answer carries a fresh token). */
function store(user: User & { token?: string }) {
  const current = useAuth.getState().userInfo;
  useAuth.getState().setUserInfo({ ...user, token: user.token ?? current?.token });
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginInput) => api<AuthUser>('/api/users/login', { method: 'POST', json: body }),
    onSuccess: (user) => useAuth.getState().setUserInfo(user),
  });
}

export function useRegister() {
  return useMutation({
    mutationFn: (body: RegisterInput) => api<RegisterResponse>('/api/users', { method: 'POST', json: body }),
  });
}

/** The address the confirmation went to (a POST; answered in `message`). */
export function useRegisterConfirm(token: string) {
  return useQuery({
    queryKey: ['registerconfirm', token],
    queryFn: () => api<MessageResponse>(`/api/users/registerconfirm/${encodeURIComponent(token)}`, { method: 'POST' }),
    staleTime: Infinity,
    retry: false,
  });
}

// The confirmation link is single-use: one request per token, even when React runs effects twice.
const confirmations = new Map<string, Promise<MessageResponse>>();
export function confirmEmail(token: string): Promise<MessageResponse> {
  let p = confirmations.get(token);
  if (!p) {
    p = api<MessageResponse>(`/api/users/confirm/${encodeURIComponent(token)}`, { method: 'POST' });
    confirmations.set(token, p);
  }
  return p;
}

// An address-change link is single-use too.
const emailChanges = new Map<string, Promise<MessageResponse & { email: string }>>();
/** Confirms an address change; a signed-in browser of that account takes the new address at once. */
export function confirmEmailChange(token: string): Promise<MessageResponse & { email: string }> {
  let p = emailChanges.get(token);
  if (!p) {
    p = api<MessageResponse & { email: string }>(`/api/users/confirm-email/${encodeURIComponent(token)}`, {
      method: 'POST',
    }).then((res) => {
      const me = useAuth.getState().userInfo;
      if (me && me.pendingEmail === res.email) store({ ...me, email: res.email, pendingEmail: undefined });
      return res;
    });
    emailChanges.set(token, p);
  }
  return p;
}

export function useResendConfirmation() {
  return useMutation({
    mutationFn: (body: { email: string; grecaptcha: string }) =>
      api<MessageResponse>('/api/users/resendconfirmation', { method: 'POST', json: body }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: { email: string }) => api<MessageResponse>('/api/users/fpw', { method: 'POST', json: body }),
  });
}

export function useResetPassword(token: string) {
  return useMutation({
    mutationFn: (body: { newPassword: string }) =>
      api<MessageResponse>(`/api/users/resetpw/${encodeURIComponent(token)}`, { method: 'POST', json: body }),
  });
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: (body: ProfileInput) => api<ProfileAnswer>('/api/users/profile', { method: 'PUT', json: body }),
    onSuccess: store,
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordInput) => api<ProfileAnswer>('/api/users/profile', { method: 'PUT', json: body }),
    onSuccess: store,
  });
}
