import type { AppliedCoupon, ShippingAddress, ShippingRate } from '@store/shared';
import { create } from 'zustand';
import { useAuth } from '#web/lib/auth.ts';
import { CHECKOUT_KEYS } from '#web/lib/checkout-keys.ts';
import { parseCoupon } from './coupon.ts';

/** Shipping address as the checkout keeps it: the order's address (the API's shape) plus the e-mail. */
export type CheckoutAddress = ShippingAddress & { email: string };

export const EMPTY_ADDRESS: CheckoutAddress = {
  email: '',
  shipToFirstName: '',
  shipToLastName: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  postalCode: '',
  country: 'US',
};

/** What "clear all checkout data" leaves behind: placeholder guest names, nothing else. */
export const PLACEHOLDER_ADDRESS: CheckoutAddress = {
  ...EMPTY_ADDRESS,
  shipToFirstName: 'Guest',
  shipToLastName: 'User',
};

function read(key: string): unknown {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as unknown);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or blocked: the in-memory state still works for this visit
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

function parseAddress(raw: unknown): CheckoutAddress | null {
  if (!raw || typeof raw !== 'object') return null;
  const a = raw as Record<string, unknown>;
  const out = Object.fromEntries(Object.keys(EMPTY_ADDRESS).map((k) => [k, str(a[k])])) as unknown as CheckoutAddress;
  return out.address1 ? out : null;
}

function parseRate(raw: unknown): ShippingRate | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  return typeof r.id === 'string' && typeof r.price === 'number'
    ? { id: r.id, name: str(r.name), price: r.price }
    : null;
}

interface CheckoutState {
  /** null until an address is saved on /shipping. */
  shippingAddress: CheckoutAddress | null;
  paymentMethod: string | null;
  shippingRate: ShippingRate | null;
  /** The discount code applied on /placeorder, with the server's answer; null for none. */
  coupon: AppliedCoupon | null;
  /** Set by clearAll until an address is saved again: the form then shows placeholder guest names. */
  cleared: boolean;
  saveShippingAddress: (address: CheckoutAddress) => void;
  savePaymentMethod: (method: string) => void;
  saveShippingRate: (rate: ShippingRate) => void;
  saveCoupon: (coupon: AppliedCoupon) => void;
  /** Drops the code (removed, refused, or used by the order just placed). */
  clearCoupon: () => void;
  /** Forgets everything; the form then starts from the placeholder guest names. */
  clearAll: () => void;
  /** Re-reads local storage (another tab, or a logout that removed the keys). */
  reload: () => void;
}

const fromStorage = () => ({
  shippingAddress: parseAddress(read(CHECKOUT_KEYS.address)),
  paymentMethod: str(read(CHECKOUT_KEYS.paymentMethod)) || null,
  shippingRate: parseRate(read(CHECKOUT_KEYS.rate)),
  coupon: parseCoupon(read(CHECKOUT_KEYS.coupon)),
});

export const useCheckout = create<CheckoutState>()((set) => ({
  ...fromStorage(),
  cleared: false,
  saveShippingAddress: (address) => {
    write(CHECKOUT_KEYS.address, address);
    set({ shippingAddress: address, cleared: false });
  },
  savePaymentMethod: (method) => {
    write(CHECKOUT_KEYS.paymentMethod, method);
    set({ paymentMethod: method });
  },
  saveShippingRate: (rate) => {
    write(CHECKOUT_KEYS.rate, rate);
    set({ shippingRate: rate });
  },
  saveCoupon: (coupon) => {
    write(CHECKOUT_KEYS.coupon, coupon);
    set({ coupon });
  },
  clearCoupon: () => {
    write(CHECKOUT_KEYS.coupon, null);
    set({ coupon: null });
  },
  clearAll: () => {
    for (const key of Object.values(CHECKOUT_KEYS)) write(key, null);
    set({ shippingAddress: null, paymentMethod: null, shippingRate: null, coupon: null, cleared: true });
  },
  reload: () => set(fromStorage()),
}));

/** The values the shipping form starts from: the saved address, else placeholders after a clear, else empty. */
export function initialAddress(saved: CheckoutAddress | null, email: string, cleared: boolean): CheckoutAddress {
  if (saved) return { ...saved, email: saved.email || email };
  return { ...(cleared ? PLACEHOLDER_ADDRESS : EMPTY_ADDRESS), email };
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key === null || (Object.values(CHECKOUT_KEYS) as string[]).includes(e.key)) useCheckout.getState().reload();
  });
  // signing out forgets the checkout (app/use-logout.ts also removes the keys)
  useAuth.subscribe((s, prev) => {
    if (!prev.userInfo || s.userInfo) return;
    useCheckout.getState().clearAll();
    useCheckout.setState({ cleared: false }); // the next shopper starts from an empty form
  });
}
