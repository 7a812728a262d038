import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCart } from '../features/cart/store.ts';
import { useAuth } from '../features/auth/store.ts';

/** Checkout data a later issue stores; logout clears it with the user and the cart (spec §4). */
const CHECKOUT_KEYS = ['shippingAddress', 'paymentMethod', 'shippingRate'];

/** Drops everything the browser keeps about the signed-in user or guest (spec §4 logout). */
export function clearSession(): void {
  useAuth.getState().clear();
  useCart.getState().clear();
  for (const key of CHECKOUT_KEYS) {
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
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'catalog' && q.queryKey[0] !== 'captcha-config' });
    navigate('/login');
  }, [navigate, queryClient]);
}
