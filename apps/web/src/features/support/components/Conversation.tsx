import type { SupportMessage } from '@store/shared';
import { useEffect, useRef } from 'react';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The conversation, oldest first, capped at 400 px and kept scrolled to the newest message. */
export function Conversation({ messages, myName }: { messages: SupportMessage[]; myName: string }) {
  const box = useRef<HTMLDivElement>(null);
  const newest = messages[messages.length - 1]?._id;
  useEffect(() => {
    const el = box.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [newest]);

  return (
    <div
      ref={box}
      className="support-conversation border rounded p-2 mb-3"
      style={{ maxHeight: 400, overflowY: 'auto' }}
      tabIndex={0}
      role="log"
      aria-label="Conversation"
    >
      {messages.length === 0 ? (
        <p className="text-body-secondary mb-0">No messages yet.</p>
      ) : (
        <ul className="list-unstyled mb-0">
          {messages.map((m) => {
            const mine = m.sender === myName;
            return (
              <li key={m._id} className={`d-flex mb-2 ${mine ? 'justify-content-end' : 'justify-content-start'}`}>
                <div
                  className={`support-message p-2 rounded ${mine ? 'bg-primary-subtle' : 'bg-body-secondary'}`}
                  style={{ maxWidth: '85%' }}
                >
                  <div className="small fw-semibold">
                    {m.fromAdmin ? 'Support' : m.isContact ? m.senderName || m.senderEmail : m.sender}
                    {m.isContact && m.subject && !m.fromAdmin && <span className="fw-normal"> · {m.subject}</span>}
                  </div>
                  <div style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{m.content}</div>
                  <time dateTime={m.timestamp} className="small text-body-secondary">
                    {timeFormat.format(new Date(m.timestamp))}
                  </time>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
