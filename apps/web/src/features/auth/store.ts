import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { plainStorage } from '../../lib/persist.ts';

/** Stored user info (CONTRACTS.md §4). Guests carry no token. */
export interface UserInfo {
  _id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  isAdmin: boolean;
  isGuest: boolean;
  isActive: boolean;
  /** Profile updates so far: from 2 on the profile form needs a captcha (spec §4). */
  profileUpdateCount: number;
  /** A requested address change, waiting for the link sent to this address. */
  pendingEmail?: string;
  token?: string;
}

interface AuthState {
  userInfo: UserInfo | null;
  /** Takes a server answer (extra fields are dropped). */
  setUserInfo: (user: Partial<UserInfo> & { _id: string }) => void;
  clear: () => void;
}

function parseUser(raw: unknown): UserInfo | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  if (typeof u._id !== 'string') return null;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    _id: u._id,
    username: str(u.username),
    firstName: str(u.firstName),
    lastName: str(u.lastName),
    email: str(u.email),
    isAdmin: u.isAdmin === true,
    isGuest: u.isGuest === true,
    isActive: u.isActive !== false,
    profileUpdateCount: typeof u.profileUpdateCount === 'number' ? u.profileUpdateCount : 0,
    ...(typeof u.pendingEmail === 'string' && u.pendingEmail ? { pendingEmail: u.pendingEmail } : {}),
    ...(typeof u.token === 'string' && u.token ? { token: u.token } : {}),
  };
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

/** Bearer token to send: registered users only (spec §6: guests send none). */
export function currentToken(): string | undefined {
  const u = useAuth.getState().userInfo;
  return u && !u.isGuest ? u.token : undefined;
}

/** Display name in the header: GUEST for guests (spec §2). */
export function displayName(u: UserInfo): string {
  if (u.isGuest) return 'GUEST';
  return u.firstName || u.username || 'Account';
}
