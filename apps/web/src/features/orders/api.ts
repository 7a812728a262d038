import type { MovementEvent, Order, PaypalConfig } from '@store/shared';
import { api, ApiError, qs } from '../../lib/api.ts';

/** Guest order access tokens, one per order, for this browser session only (spec §3, §9). */
const tokenKey = (orderId: string) => `orderAccessToken:${orderId}`;

export function getAccessToken(orderId: string): string | null {
  try {
    return sessionStorage.getItem(tokenKey(orderId));
  } catch {
    return null;
  }
}

export function setAccessToken(orderId: string, token: string | null): void {
  try {
    if (token) sessionStorage.setItem(tokenKey(orderId), token);
    else sessionStorage.removeItem(tokenKey(orderId));
  } catch {
    /* blocked storage: the token lives as long as the page */
  }
}

export const orderKey = (id: string) => ['order', id] as const;

/**
 * The order as its owner or an admin sees it; with a verified guest's access token, through the guest
 * path. An expired token is dropped and the owner path tried, so the page can ask again.
 */
export async function fetchOrder(id: string): Promise<Order> {
  const token = getAccessToken(id);
  if (token) {
    try {
      return await api<Order>(`/api/orders/${encodeURIComponent(id)}/guest${qs({ accessToken: token })}`);
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 403 && err.status !== 404)) throw err;
      setAccessToken(id, null);
    }
  }
  return api<Order>(`/api/orders/${encodeURIComponent(id)}`);
}

export function requestGuestAccess(id: string, email: string, postalCode: string) {
  return api<{ accessToken: string; expiresAt: string }>(`/api/orders/${encodeURIComponent(id)}/guest-access`, {
    method: 'POST',
    json: { email, postalCode },
  });
}

export interface PaymentResult {
  id: string;
  status: string;
  update_time: string;
  email: string;
}

export function payOrder(id: string, paymentResult: PaymentResult): Promise<Order> {
  const token = getAccessToken(id);
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/pay${qs({ accessToken: token ?? undefined })}`, {
    method: 'PUT',
    json: { orderId: id, paymentResult },
  });
}

export function fetchPaypalConfig(): Promise<PaypalConfig> {
  return api<PaypalConfig>('/api/config/paypal');
}

export function shipOrder(id: string, trackingNumbers: { number: string; trackingItem: string[] }[]): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/ship`, { method: 'PUT', json: { trackingNumbers } });
}

export function deliverOrder(id: string): Promise<Order> {
  return api<Order>(`/api/orders/${encodeURIComponent(id)}/deliver`, { method: 'PUT' });
}

/** The movements of a shipment, newest first (the configured tracking provider answers). */
export function fetchMovements(input: {
  trackingId: string;
  destinationCountry: string;
  language: string;
  zipcode: string;
}): Promise<MovementEvent[]> {
  return api<MovementEvent[]>('/api/orders/shipments/tracking', { method: 'POST', json: input });
}

/** Admin: records a movement of one tracking number (what the manual provider answers). */
export function recordMovement(
  orderId: string,
  trackingNumberId: string,
  body: { status: string; location: string },
): Promise<MovementEvent[]> {
  return api<MovementEvent[]>(
    `/api/orders/${encodeURIComponent(orderId)}/tracking/${encodeURIComponent(trackingNumberId)}/events`,
    { method: 'POST', json: body },
  );
}

/** Admin: mails the order's tracking numbers and their items to the buyer again. */
export function emailTrackingNumbers(order: Order): Promise<{ message: string }> {
  return api<{ message: string }>('/api/orders/email/send', {
    method: 'POST',
    json: {
      orderId: order._id,
      email: order.user.email,
      bigNumber: order.trackingNumbers.map((t) => ({ number: t.number, trackingItem: t.trackingItem })),
    },
  });
}
