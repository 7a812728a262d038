import type { User } from '@store/shared';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { plainStorage } from './persist.ts';

/**
 * The signed-in user as the browser keeps it: the API's user answer (`User`, packages/shared) plus its
 * bearer token; the shipping address is not kept here (the checkout keeps its own). Guests carry no token.
 */
export type UserInfo = Omit<User, 'shippingAddress'> & { token?: string };

/**
 * Every field of the stored user but its id, with the value a partial user (older stored data, the
 * guest an order page makes from the order's buyer) takes when the field is missing or of the wrong
 * type. Typed against the shared `User`, so a field the API's user gains must be added here.
 */
const FIELDS: Required<Omit<UserInfo, '_id' | 'pendingEmail' | 'token'>> = {
  username: '',
  firstName: '',
  lastName: '',
  email: '',
  isAdmin: false,
  isGuest: false,
  isActive: true,
  profileUpdateCount: 0,
};

/**
 * The stored user from a server answer or from local storage; null when it has no id. (Checked by
 * hand, not with the shared zod schema: the auth store loads with every page, zod is ~25 KB gzipped
 * that the home page does not otherwise need.)
 */
function parseUser(raw: unknown): UserInfo | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  if (typeof u._id !== 'string') return null;
  const fields = Object.fromEntries(
    Object.entries(FIELDS).map(([key, fallback]) => [key, typeof u[key] === typeof fallback ? u[key] : fallback]),
  ) as typeof FIELDS;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  const pendingEmail = text(u.pendingEmail);
  const token = text(u.token);
  return { _id: u._id, ...fields, ...(pendingEmail ? { pendingEmail } : {}), ...(token ? { token } : {}) };
}

interface AuthState {
  userInfo: UserInfo | null;
  /** Takes a server answer (fields the stored user does not have are dropped). */
  setUserInfo: (user: Partial<UserInfo> & { _id: string }) => void;
  clear: () => void;
}

export const AUTH_KEY = 'userInfo';

export const useAuth = create<AuthState>()(
  persist(
    (set) => ({
      userInfo: null,
      setUserInfo: (user) => {
        const clean = parseUser(user);
        set({ userInfo: clean && clean.isGuest ? { ...clean, token: undefined } : clean });
      },
      clear: () => set({ userInfo: null }),
    }),
    {
      name: AUTH_KEY,
      storage: plainStorage<{ userInfo: UserInfo | null }, UserInfo | null>(
        (s) => s.userInfo,
        (raw) => ({ userInfo: parseUser(raw) }),
      ),
      partialize: (s) => ({ userInfo: s.userInfo }),
    },
  ),
);

/** Bearer token to send: registered users only (guests are known by their session cookie and send none). */
export function currentToken(): string | undefined {
  const u = useAuth.getState().userInfo;
  return u && !u.isGuest ? u.token : undefined;
}

/** Display name in the header: GUEST for guests. */
export function displayName(u: UserInfo): string {
  if (u.isGuest) return 'GUEST';
  return u.firstName || u.username || 'Account';
}
