import type { ContactInput, InboxPage, MessageSendInput, Recipient, SupportMessage } from '@store/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, qs } from '#web/lib/api.ts';
import { supportUnreadKey } from '#web/lib/support-unread.ts';

export const supportKeys = {
  conversation: (id: string) => ['support', 'conversation', id] as const,
  recipients: (q: string) => ['support', 'recipients', q] as const,
  inbox: ['support', 'inbox'] as const,
};

export function useSendContact() {
  return useMutation({
    mutationFn: (body: ContactInput) => api<{ message: string }>('/api/contact', { method: 'POST', json: body }),
  });
}

/** A conversation, oldest first; `id` is the user's own id, or for admins a user id or a contact e-mail. */
export function useConversation(id: string | null) {
  return useQuery({
    queryKey: supportKeys.conversation(id ?? ''),
    queryFn: ({ signal }) => api<SupportMessage[]>(`/api/messages/get/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id),
    refetchInterval: 15_000,
  });
}

export function useSendMessage(conversationId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageSendInput) => api<SupportMessage>('/api/messages/send', { method: 'POST', json: body }),
    onSuccess: () =>
      Promise.all([
        conversationId
          ? queryClient.invalidateQueries({ queryKey: supportKeys.conversation(conversationId) })
          : undefined,
        queryClient.invalidateQueries({ queryKey: supportKeys.inbox }),
        queryClient.invalidateQueries({ queryKey: supportUnreadKey }),
      ]),
  });
}

/** GET /api/support/inbox (admin): conversations newest first, 20 a page, optionally only the unread ones. */
export function useInbox(unreadOnly: boolean, pageNumber: number) {
  return useQuery({
    queryKey: [...supportKeys.inbox, unreadOnly, pageNumber],
    queryFn: ({ signal }) =>
      api<InboxPage>(`/api/support/inbox${qs({ unread: unreadOnly ? 'true' : undefined, pageNumber })}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
}

/** PUT /api/support/conversations/{id}/read: the shopper's own (`me`), or for admins a user id or e-mail. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<{ unread: number }>(`/api/support/conversations/${encodeURIComponent(id)}/read`, { method: 'PUT' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: supportKeys.inbox }),
        queryClient.invalidateQueries({ queryKey: supportUnreadKey }),
      ]),
  });
}

/** Admin recipient suggestions (server-side search, at most 50). */
export function useRecipients(q: string, enabled: boolean) {
  return useQuery({
    queryKey: supportKeys.recipients(q),
    queryFn: ({ signal }) => api<Recipient[]>(`/api/messages/recipients?q=${encodeURIComponent(q)}`, { signal }),
    enabled,
    staleTime: 30_000,
  });
}
