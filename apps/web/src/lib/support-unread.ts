import type { SupportUnread } from '@store/shared';
import { useQuery } from '@tanstack/react-query';
import { currentToken, useAuth } from './auth.ts';

export const supportUnreadKey = ['support', 'unread'] as const;

/**
 * GET /api/support/unread for the header's badges. A background count never signs anyone out: a refused
 * token is left to the calls the person makes (they sign out as usual), and a failure shows no badge.
 */
async function fetchUnread(signal: AbortSignal): Promise<SupportUnread> {
  const token = currentToken();
  const res = await fetch('/api/support/unread', {
    signal,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) return { unread: 0 };
  return (await res.json()) as SupportUnread;
}

/**
 * What waits for the signed-in account (header badges): support replies it has not read, and for admins the
 * inbox's conversations with unread messages. Asked every minute and when the window regains focus; never
 * for visitors or guests (they have no support conversation).
 */
export function useSupportUnread() {
  const user = useAuth((s) => s.userInfo);
  return useQuery({
    queryKey: [...supportUnreadKey, user?._id ?? ''],
    queryFn: ({ signal }) => fetchUnread(signal),
    enabled: Boolean(user && !user.isGuest),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    staleTime: 10_000,
  });
}
