import { useQuery } from '@tanstack/react-query';
import type {
  AddressSuggestion,
  AddressValidationRequest,
  AppliedCoupon,
  ApplyCouponInput,
  CreateOrderInput,
  Order,
  ShippingRatesResponse,
  User,
} from '@store/shared';
import { api } from '#web/lib/api.ts';
import { useAuth, type UserInfo } from '#web/lib/auth.ts';
import { isCouponRefusal } from './coupon.ts';
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

// ---- discount codes ---------------------------------------------------------------------------

export const couponKeys = {
  apply: (req: ApplyCouponInput | null) => ['coupon-apply', req] as const,
};

/** POST /api/coupons/apply: the order priced with the code, or a 400 saying why the code does not apply. */
export function applyCoupon(req: ApplyCouponInput): Promise<AppliedCoupon> {
  return api<AppliedCoupon>('/api/coupons/apply', { method: 'POST', json: req });
}

/** How long an answer for the same lines and rate is reused (the server re-checks the code with the order anyway). */
export const COUPON_ANSWER_MS = 60_000;

/**
 * The applied code priced for the current lines and rate (`req`; null while there is no code or no rate
 * yet). A new answer is kept by `onAnswer`; when the server refuses the code now (the cart fell below its
 * minimum, it ended…) `onRefused` gets the reason.
 */
export function useCouponPrice(
  req: ApplyCouponInput | null,
  onAnswer: (answer: AppliedCoupon) => void,
  onRefused: (message: string) => void,
) {
  return useQuery({
    queryKey: couponKeys.apply(req),
    queryFn: async () => {
      try {
        const answer = await applyCoupon(req!);
        onAnswer(answer);
        return answer;
      } catch (err) {
        if (isCouponRefusal(err)) onRefused(err.message);
        throw err;
      }
    },
    enabled: req !== null,
    retry: false,
    staleTime: COUPON_ANSWER_MS,
    refetchOnWindowFocus: false,
  });
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
