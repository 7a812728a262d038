import { LIMITS, SUPPORT_MESSAGES, supportContentField, type Recipient } from '@store/shared';
import { useEffect, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useSupportUnread } from '#web/lib/support-unread.ts';
import { useConversation, useMarkRead, useSendMessage } from '../api.ts';
import { Conversation } from '../components/Conversation.tsx';
import { RecipientSearch } from '../components/RecipientSearch.tsx';

/**
 * Contact Support: a user talks with support; an admin picks a user or a contact sender
 * and answers. Sending asks for confirmation first. Admins need no captcha (the server does not ask them);
 * a user's solves itself, and a send waits for its answer.
 */
export default function ContactSupportPage() {
  useDocumentTitle('Contact Support');
  const me = useAuth((s) => s.userInfo)!;
  const isAdmin = me.isAdmin;
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const conversationId = isAdmin ? (recipient?.id ?? null) : me._id;
  const conversation = useConversation(conversationId);
  const send = useSendMessage(conversationId);
  const [content, setContent] = useState('');
  const captcha = useCaptcha();
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recipientError, setRecipientError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  // the shopper has read support's replies once the conversation is on screen: the header badge goes
  const repliesWaiting = useSupportUnread().data?.unread ?? 0;
  const markRead = useMarkRead();
  const shown = !isAdmin && conversation.isSuccess;
  useEffect(() => {
    if (shown && repliesWaiting > 0 && !markRead.isPending) markRead.mutate('me');
    // markRead is a new object each render; asking again only when the count or the conversation changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown, repliesWaiting, conversation.dataUpdatedAt]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (isAdmin && !recipient) {
      setRecipientError(SUPPORT_MESSAGES.recipient);
      return;
    }
    const checked = supportContentField.safeParse(content);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? SUPPORT_MESSAGES.empty);
      return;
    }
    if (!isAdmin) {
      setWaiting(true);
      const answered = await captcha.answer();
      setWaiting(false);
      if (!answered) return;
    }
    setConfirming(true);
  };

  const confirm = async () => {
    setConfirming(false);
    const grecaptcha = isAdmin ? undefined : await captcha.answer();
    if (!isAdmin && !grecaptcha) return;
    send.mutate(
      { content, recipient: isAdmin ? recipient!.id : 'admin', ...(grecaptcha ? { grecaptcha } : {}) },
      {
        onSuccess: () => setContent(''),
        onError: (err) => setError(err.message),
        // the answer is used: a fresh one is solved quietly
        onSettled: () => {
          if (!isAdmin) captcha.renew();
        },
      },
    );
  };

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-md-10 col-lg-8">
        <h1 className="h3 mb-4">Contact Support</h1>
        {isAdmin && (
          <RecipientSearch
            selected={recipient}
            onSelect={(r) => {
              setRecipient(r);
              setRecipientError(undefined);
            }}
            error={recipientError}
          />
        )}
        {conversationId &&
          (conversation.isPending ? (
            <Loader label="Loading messages…" />
          ) : conversation.error ? (
            <Message variant="danger">{conversation.error.message}</Message>
          ) : (
            <Conversation messages={conversation.data ?? []} myName={isAdmin ? 'admin' : me.username} />
          ))}
        {error && <Message variant="danger">{error}</Message>}
        {send.isSuccess && !error && <Message variant="success">Message sent.</Message>}
        <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Send a support message">
          <div className="mb-3">
            <label htmlFor="support-message" className="form-label">
              Message
            </label>
            <textarea
              id="support-message"
              className="form-control"
              rows={4}
              maxLength={LIMITS.supportMessage}
              value={content}
              onChange={(e) => setContent(e.target.value)}
            />
            <div className="form-text">
              {content.length}/{LIMITS.supportMessage}
            </div>
          </div>
          {!isAdmin && (
            <div className="mb-3">
              <Captcha {...captcha.props} />
            </div>
          )}
          <button type="submit" className="btn btn-primary" disabled={waiting || send.isPending}>
            {waiting || send.isPending ? 'Sending…' : 'Send'}
          </button>
        </form>
      </div>
      <Modal show={confirming} onHide={() => setConfirming(false)} centered aria-labelledby="support-confirm-title">
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="support-confirm-title" as="h2" className="h5">
            Send message
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{SUPPORT_MESSAGES.confirm}</Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="primary" onClick={() => void confirm()}>
            Yes, send
          </Button>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
