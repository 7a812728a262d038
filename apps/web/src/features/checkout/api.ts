import { useQuery } from '@tanstack/react-query';
import type {
  AddressSuggestion,
  AddressValidationRequest,
  CreateOrderInput,
  Order,
  ShippingRatesResponse,
  User,
} from '@store/shared';
import { api } from '#web/lib/api.ts';
import { useAuth, type UserInfo } from '#web/lib/auth.ts';
import type { CheckoutAddress } from './store.ts';

export const MAILING_LIST_SOURCE = 'shipping_opt_in';

export function validateAddress(body: AddressValidationRequest): Promise<AddressSuggestion> {
  return api<AddressSuggestion>('/api/shipping/shippingaddress', { method: 'POST', json: body });
}

/** Saves the address on the profile (a guest also sends its e-mail, which the server keeps on the guest) and refreshes the stored user. */
export async function saveProfileAddress(address: CheckoutAddress, isGuest: boolean): Promise<void> {
  const { email, ...shippingAddress } = address;
  const user = await api<User & { token?: string }>('/api/users/profile', {
    method: 'PUT',
    json: isGuest ? { shippingAddress, email } : { shippingAddress },
  });
  const current = useAuth.getState().userInfo;
  if (current && user?._id === current._id) {
    const next: UserInfo = { ...current, email: user.email, firstName: user.firstName, lastName: user.lastName };
    if (!current.isGuest && user.token) next.token = user.token;
    useAuth.getState().setUserInfo(next);
  }
}

/** Promotions opt-in: failures do not matter to the checkout, so they are ignored. */
export function subscribeToMailingList(email: string): void {
  api('/api/mailing-list/subscribe', { method: 'POST', json: { email, source: MAILING_LIST_SOURCE } }).catch(() => {
    /* ignored on purpose */
  });
}

export function fetchShippingRates(checkoutId: string): Promise<ShippingRatesResponse> {
  return api<ShippingRatesResponse>(`/api/shipping/${encodeURIComponent(checkoutId)}`);
}

/** The rates the server offers this shopper (needs a user or guest: the route is per checkout). */
export function useShippingRates(userId: string | undefined) {
  return useQuery({
    queryKey: ['shipping-rates', userId ?? 'anonymous'],
    queryFn: () => fetchShippingRates(userId ?? 'checkout'),
    enabled: Boolean(userId),
  });
}

export function createOrder(body: CreateOrderInput): Promise<Order> {
  return api<Order>('/api/orders', { method: 'POST', json: body });
}

// ---- guest sessions (guest checkout) ----------------------------------------------------------

export function fetchSession(): Promise<User> {
  return api<User>('/api/users/session');
}

export function createGuest(grecaptcha: string): Promise<User> {
  return api<User>('/api/users/guest', { method: 'POST', json: { grecaptcha } });
}

/** The guestToken cookie is http-only: only the server can drop it. */
export function clearGuestCookie(): Promise<unknown> {
  return api('/api/users/logout', { method: 'POST' }).catch(() => undefined);
}
