import { LIMITS, SUPPORT_MESSAGES, TOAST_MS, supportContentField, type InboxConversation } from '@store/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { qs } from '#web/lib/api.ts';
import { paths } from '#web/lib/paths.ts';
import { useConversation, useInbox, useMarkRead, useSendMessage } from '../api.ts';
import { Conversation } from '../components/Conversation.tsx';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** One conversation of the list: who, about what, the newest message, and whether support has read it. */
function InboxItem({ c, open, href }: { c: InboxConversation; open: boolean; href: string }) {
  const unread = c.unread > 0;
  return (
    <li>
      <Link
        to={href}
        className={`list-group-item list-group-item-action d-block ${open ? 'active' : ''}`}
        aria-current={open ? 'true' : undefined}
        data-testid="inbox-item"
        data-recipient={c.recipient}
      >
        <div className="d-flex justify-content-between align-items-start gap-2">
          <span className={`text-break ${unread ? 'fw-bold' : ''}`}>
            {c.name}
            {c.kind === 'contact' && <span className="badge text-bg-light border ms-2 fw-normal">contact form</span>}
          </span>
          {unread && (
            <span className="badge rounded-pill text-bg-danger" data-testid="inbox-unread">
              {c.unread}
              <span className="visually-hidden"> unread</span>
            </span>
          )}
        </div>
        <div className={`small text-break ${open ? '' : 'text-body-secondary'}`}>
          {c.email}
          {c.subject && ` · ${c.subject}`}
        </div>
        <div className={`small text-truncate ${unread ? 'fw-semibold' : ''}`}>
          {c.lastMessage.fromAdmin ? 'You: ' : ''}
          {c.lastMessage.content}
        </div>
        <time dateTime={c.lastMessage.timestamp} className={`small ${open ? '' : 'text-body-secondary'}`}>
          {timeFormat.format(new Date(c.lastMessage.timestamp))}
        </time>
      </Link>
    </li>
  );
}

/** The open conversation: its messages (marked read as they are shown) and the reply box. */
function OpenConversation({ c, onSent }: { c: InboxConversation; onSent: (to: string) => void }) {
  const conversation = useConversation(c.recipient);
  const send = useSendMessage(c.recipient);
  const markRead = useMarkRead();
  const [content, setContent] = useState('');
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const shown = conversation.isSuccess;
  useEffect(() => {
    if (shown && c.unread > 0 && !markRead.isPending) markRead.mutate(c.recipient);
    // markRead is a new object each render; asking again only when what is unread or shown changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [shown, c.recipient, c.unread, conversation.dataUpdatedAt]);

  useEffect(() => heading.current?.focus(), [c.recipient]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const checked = supportContentField.safeParse(content);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? SUPPORT_MESSAGES.empty);
      return;
    }
    send.mutate(
      { content, recipient: c.recipient },
      {
        onSuccess: () => {
          setContent('');
          onSent(c.name);
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  return (
    <section aria-labelledby="conversation-title">
      <h2 id="conversation-title" className="h5 mb-1" tabIndex={-1} ref={heading}>
        {c.name}
      </h2>
      <p className="small text-body-secondary text-break mb-2">
        {c.username && `@${c.username} · `}
        {c.email}
        {c.kind === 'contact' && ' · replies go to this address by e-mail'}
      </p>
      {conversation.isPending ? (
        <Loader label="Loading messages…" />
      ) : conversation.error ? (
        <Message variant="danger">{conversation.error.message}</Message>
      ) : (
        <Conversation messages={conversation.data ?? []} myName="admin" />
      )}
      {error && <Message variant="danger">{error}</Message>}
      <form onSubmit={onSubmit} noValidate aria-label={`Reply to ${c.name}`}>
        <label htmlFor="inbox-reply" className="form-label">
          Reply
        </label>
        <textarea
          id="inbox-reply"
          className="form-control mb-1"
          rows={3}
          maxLength={LIMITS.supportMessage}
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
        <div className="d-flex justify-content-between align-items-center">
          <span className="form-text">
            {content.length}/{LIMITS.supportMessage}
          </span>
          <button type="submit" className="btn btn-primary" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send reply'}
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * The support inbox (admins): every conversation, newest first, with its customer, newest message and what
 * support has not read; open one to read it (that marks it read) and reply. The open conversation, the
 * unread-only filter and the page are kept in the address.
 */
export default function SupportInboxPage() {
  useDocumentTitle('Support Inbox');
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Math.floor(Number(search.get('page'))) || 1);
  const unreadOnly = search.get('unread') === 'true';
  const openId = search.get('c');
  const inbox = useInbox(unreadOnly, page);
  const [toast, setToast] = useState<ToastContent | null>(null);
  // the open conversation stays open while it leaves the page shown (a newer one pushed it down)
  const [lastOpen, setLastOpen] = useState<InboxConversation | null>(null);
  const listed = inbox.data?.conversations ?? [];
  const open = listed.find((c) => c.recipient === openId) ?? (lastOpen?.recipient === openId ? lastOpen : null);
  useEffect(() => {
    if (open && open !== lastOpen) setLastOpen(open);
  }, [open, lastOpen]);

  type At = { c?: string | null; page?: number; unread?: boolean };
  const query = (o: At) =>
    qs({
      unread: (o.unread ?? unreadOnly) ? 'true' : undefined,
      page: (o.page ?? page) > 1 ? (o.page ?? page) : undefined,
      c: o.c === undefined ? (openId ?? undefined) : (o.c ?? undefined),
    });
  const href = (o: At) => `${paths.adminSupport}${query(o)}`;

  return (
    <>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-3 mb-3">
        <h1 className="h3 mb-0">Support Inbox</h1>
        <div className="form-check form-switch">
          <input
            id="inbox-unread-only"
            className="form-check-input"
            type="checkbox"
            role="switch"
            checked={unreadOnly}
            onChange={(e) => setSearch(new URLSearchParams(query({ unread: e.target.checked, page: 1 })))}
          />
          <label htmlFor="inbox-unread-only" className="form-check-label">
            Unread only
          </label>
        </div>
      </div>
      <div className="row g-4">
        <div className="col-12 col-lg-5">
          {inbox.error ? (
            <Message variant="danger">{inbox.error.message}</Message>
          ) : !inbox.data ? (
            <Loader label="Loading conversations…" />
          ) : listed.length === 0 ? (
            <Message>{unreadOnly ? 'No unread conversations.' : 'No conversations yet.'}</Message>
          ) : (
            <nav aria-label="Conversations">
              <ul className="list-group list-unstyled support-inbox">
                {listed.map((c) => (
                  <InboxItem key={c._id} c={c} open={c.recipient === openId} href={href({ c: c.recipient })} />
                ))}
              </ul>
            </nav>
          )}
          {(page > 1 || inbox.data?.hasMore) && (
            <nav aria-label="Inbox pages" className="d-flex justify-content-between mt-3">
              {page > 1 ? (
                <Link className="btn btn-sm btn-outline-secondary" to={href({ page: page - 1 })}>
                  Newer
                </Link>
              ) : (
                <span />
              )}
              {inbox.data?.hasMore && (
                <Link className="btn btn-sm btn-outline-secondary" to={href({ page: page + 1 })}>
                  Older
                </Link>
              )}
            </nav>
          )}
        </div>
        <div className="col-12 col-lg-7">
          {open ? (
            <OpenConversation
              key={open.recipient}
              c={open}
              onSent={(name) =>
                setToast({ title: 'Reply sent', body: `Your reply to ${name} was sent.`, variant: 'success' })
              }
            />
          ) : (
            <p className="text-body-secondary">Choose a conversation to read it and reply.</p>
          )}
        </div>
      </div>
      <TimedToast toast={toast} delay={TOAST_MS.adminAction} onClose={() => setToast(null)} />
    </>
  );
}
