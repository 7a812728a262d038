import type { ContactInput, MessageSendInput, Recipient, SupportMessage } from '@store/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api.ts';

export const supportKeys = {
  conversation: (id: string) => ['support', 'conversation', id] as const,
  recipients: (q: string) => ['support', 'recipients', q] as const,
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
      conversationId
        ? queryClient.invalidateQueries({ queryKey: supportKeys.conversation(conversationId) })
        : undefined,
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
