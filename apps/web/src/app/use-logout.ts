import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCart } from '../lib/cart.ts';
import { catalogKeys } from '../lib/catalog.ts';
import { CHECKOUT_KEYS } from '../lib/checkout-keys.ts';
import { useAuth } from '../lib/auth.ts';
import { paths } from '../lib/paths.ts';

/** Logout: drops everything the browser keeps about the signed-in user or guest (user, cart, checkout data). */
export function clearSession(): void {
  useAuth.getState().clear();
  useCart.getState().clear();
  for (const key of Object.values(CHECKOUT_KEYS)) {
    try {
      localStorage.removeItem(key);
    } catch {
      /* blocked storage */
    }
  }
  // the http-only guestToken cookie can only be dropped by the server; a failure changes nothing here
  void fetch('/api/users/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
}

export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(() => {
    clearSession();
    queryClient.removeQueries({
      predicate: (q) => q.queryKey[0] !== catalogKeys.all[0] && q.queryKey[0] !== 'captcha-config',
    });
    navigate(paths.login());
  }, [navigate, queryClient]);
}
