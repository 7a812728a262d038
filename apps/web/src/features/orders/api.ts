import { ORDER_MESSAGES, type MovementEvent, type Order, type OrderSummary, type PaypalConfig } from '@store/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError, qs } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';

/**
 * Guest order access tokens, one per order, kept in session storage: they last as long as this browser
 * session and are never shared with another tab's session.
 */
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

export const orderKeys = {
  one: (id: string) => ['order', id] as const,
  mine: (userId: string | undefined) => ['orders', 'mine', userId] as const,
  paypalConfig: ['paypal-config'] as const,
  movements: (trackingNumber: string) => ['tracking', trackingNumber] as const,
};

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

export function useOrder(id: string) {
  return useQuery({ queryKey: orderKeys.one(id), queryFn: () => fetchOrder(id), retry: false, staleTime: 0 });
}

/** Every write of an order answers the order: the page shows that answer at once. */
function useOrderMutation<V>(id: string, write: (variables: V) => Promise<Order>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (order: Order) => qc.setQueryData(orderKeys.one(id), order),
  });
}

/**
 * 'Verify Order Access': the e-mail address and postal code on the order earn an access token for it, kept
 * for this browser session.
 */
export function useGuestAccess(id: string) {
  return useMutation({
    mutationFn: async ({ email, postalCode }: { email: string; postalCode: string }) => {
      const { accessToken } = await api<{ accessToken: string; expiresAt: string }>(
        `/api/orders/${encodeURIComponent(id)}/guest-access`,
        { method: 'POST', json: { email, postalCode } },
      );
      if (!accessToken) throw new Error(ORDER_MESSAGES.accessFailed);
      setAccessToken(id, accessToken);
    },
  });
}

/** The order's access token in the query, for a verified guest (nothing for its owner). */
const withToken = (id: string) => qs({ accessToken: getAccessToken(id) ?? undefined });

/**
 * The PayPal buttons' createOrder: the server creates the PayPal order for the total it computed and
 * answers its id.
 */
export async function startPaypal(orderId: string): Promise<string> {
  const { id } = await api<{ id: string }>(`/api/orders/${encodeURIComponent(orderId)}/paypal${withToken(orderId)}`, {
    method: 'POST',
  });
  return id;
}

/** The PayPal buttons' onApprove: the server captures the approved PayPal order and records the payment. */
export function useCapturePayment(id: string) {
  return useOrderMutation(id, (paypalOrderId: string) =>
    api<Order>(`/api/orders/${encodeURIComponent(id)}/paypal/capture${withToken(id)}`, {
      method: 'POST',
      json: { paypalOrderId },
    }),
  );
}

/** Cancels the order: its owner while unpaid, an admin while not shipped (a paid one is refunded first). */
export function useCancelOrder(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api<Order>(`/api/orders/${encodeURIComponent(id)}/cancel${withToken(id)}`, { method: 'PUT' }),
    onSuccess: (order: Order) => {
      qc.setQueryData(orderKeys.one(id), order);
      void qc.invalidateQueries({ queryKey: ['orders'] });
    },
  });
}

export interface RefundBody {
  amount: number;
  reason: string;
  restock: { product: string; variant?: string | null; qty: number }[];
}

/** Admin: refunds part or all of a paid order, putting the chosen items back in stock. */
export function useRefundOrder(id: string) {
  return useOrderMutation(id, (body: RefundBody) =>
    api<Order>(`/api/orders/${encodeURIComponent(id)}/refunds`, { method: 'POST', json: body }),
  );
}

/** Whether the server takes real PayPal payments (with its client id) or simulates them (test mode). */
export function usePaypalConfig() {
  return useQuery({
    queryKey: orderKeys.paypalConfig,
    queryFn: () => api<PaypalConfig>('/api/config/paypal'),
    staleTime: Infinity,
  });
}

export type TrackingNumbersInput = { number: string; trackingItem: string[] }[];

/** Admin: marks the order shipped with its tracking numbers. */
export function useShipOrder(id: string) {
  return useOrderMutation(id, (trackingNumbers: TrackingNumbersInput) =>
    api<Order>(`/api/orders/${encodeURIComponent(id)}/ship`, { method: 'PUT', json: { trackingNumbers } }),
  );
}

/** Admin: marks the order delivered. */
export function useDeliverOrder(id: string) {
  return useOrderMutation<void>(id, () =>
    api<Order>(`/api/orders/${encodeURIComponent(id)}/deliver`, { method: 'PUT' }),
  );
}

/** The movements of one shipment of the order, newest first (the configured tracking provider answers). */
export function useMovements(order: Order, trackingNumber: string) {
  return useQuery({
    queryKey: orderKeys.movements(trackingNumber),
    queryFn: () =>
      api<MovementEvent[]>('/api/orders/shipments/tracking', {
        method: 'POST',
        json: {
          trackingId: trackingNumber,
          destinationCountry: order.shippingAddress.country,
          // the server asks carriers in English whatever is sent; the field is still required
          language: 'en',
          zipcode: order.shippingAddress.postalCode,
        },
      }),
    retry: false,
    staleTime: 60_000,
  });
}

/** Admin: records a movement of one tracking number (what the manual provider answers); answers them all. */
export function useRecordMovement(orderId: string, tracking: { _id: string; number: string }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { status: string; location: string }) =>
      api<MovementEvent[]>(
        `/api/orders/${encodeURIComponent(orderId)}/tracking/${encodeURIComponent(tracking._id)}/events`,
        { method: 'POST', json: body },
      ),
    onSuccess: (events) => qc.setQueryData(orderKeys.movements(tracking.number), events),
  });
}

/** Admin: mails the order's tracking numbers and their items to the buyer again. */
export function useEmailTrackingNumbers(order: Order) {
  return useMutation({
    mutationFn: () =>
      api<{ message: string }>('/api/orders/email/send', {
        method: 'POST',
        json: {
          orderId: order._id,
          email: order.user.email,
          bigNumber: order.trackingNumbers.map((t) => ({ number: t.number, trackingItem: t.trackingItem })),
        },
      }),
  });
}

/** The signed-in user's orders, newest first. */
export function useMyOrders(enabled: boolean) {
  const userId = useAuth((s) => s.userInfo?._id);
  return useQuery({
    queryKey: orderKeys.mine(userId),
    queryFn: () => api<OrderSummary[]>('/api/orders/myorders'),
    enabled,
    staleTime: 0,
  });
}
