import { STORE_NAME, escapeHtml, formatMoney, payWithinText } from '@store/shared';
import type { MailMessage } from './outbox.ts';

/** E-mail templates: HTML and plain text from the same parts, links built from PUBLIC_URL. */
interface Parts {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Preformatted lines (items, tracking numbers): listed in both versions. */
  lines?: string[];
  footer?: string;
}

function render(p: Parts): MailMessage {
  const subject = `${p.subject} | ${STORE_NAME}`;
  const footer = p.footer ?? `You received this e-mail from ${STORE_NAME}.`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#212529;max-width:600px;margin:0 auto;padding:16px">',
    `<h2 style="color:#0b5ed7">${escapeHtml(STORE_NAME)}</h2>`,
    `<p>${escapeHtml(p.greeting)}</p>`,
    ...p.paragraphs.map((t) => `<p>${escapeHtml(t)}</p>`),
    p.lines?.length ? `<ul>${p.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>` : '',
    p.action
      ? `<p><a href="${escapeHtml(p.action.url)}" style="display:inline-block;background:#0b5ed7;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(p.action.label)}</a></p>` +
        `<p style="font-size:12px;color:#6c757d">If the button does not work, open this link: ${escapeHtml(p.action.url)}</p>`
      : '',
    `<hr><p style="font-size:12px;color:#6c757d">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');
  const text = [
    p.greeting,
    '',
    ...p.paragraphs.flatMap((t) => [t, '']),
    ...(p.lines?.length ? [...p.lines.map((l) => `- ${l}`), ''] : []),
    ...(p.action ? [`${p.action.label}: ${p.action.url}`, ''] : []),
    '--',
    footer,
  ].join('\n');
  return { to: p.to, subject, html, text };
}

const hello = (name: string | undefined) => (name ? `Hello ${name},` : 'Hello,');

export function confirmEmailMail(publicUrl: string, to: string, name: string, token: string): MailMessage {
  return render({
    to,
    subject: 'Confirm your e-mail address',
    greeting: hello(name),
    paragraphs: [
      `Thank you for registering at ${STORE_NAME}. Please confirm your e-mail address to activate your account.`,
      'The link is valid for 24 hours.',
    ],
    action: { label: 'Confirm my e-mail', url: `${publicUrl}/user/confirm/${token}` },
    footer: 'If you did not create an account, you can ignore this e-mail.',
  });
}

export function resetPasswordMail(publicUrl: string, to: string, name: string, token: string): MailMessage {
  return render({
    to,
    subject: 'Reset your password',
    greeting: hello(name),
    paragraphs: [
      'We received a request to reset the password of your account.',
      'The link is valid for 1 hour and works once.',
    ],
    action: { label: 'Choose a new password', url: `${publicUrl}/users/resetpw/${token}` },
    footer: 'If you did not ask for this, you can ignore this e-mail: your password stays as it is.',
  });
}

/**
 * Where an order's number goes in a mail written before the order is inserted: the statement that
 * inserts the order puts the number in its place.
 */
export const ORDER_NUMBER_SLOT = '{{order-number}}';

export interface OrderMailItem {
  name: string;
  qty: number;
  price: number;
}

export function orderConfirmationMail(
  publicUrl: string,
  o: {
    to: string;
    name: string;
    orderId: string;
    /** The order's number, or ORDER_NUMBER_SLOT when it is not known yet. */
    orderNumber: number | string;
    items: OrderMailItem[];
    totalPrice: number;
    /** The discount code the order carries: what it took off the items, or that shipping is free. */
    discount?: { code: string; amount: number; freeShipping: boolean } | null;
    /** How long the unpaid order holds its items (ORDER_HOLD_MINUTES); 0 or left out: no deadline to state. */
    payWithinMinutes?: number;
  },
): MailMessage {
  const d = o.discount;
  const deadline = o.payWithinMinutes
    ? [`Please pay within ${payWithinText(o.payWithinMinutes)}, or the items go back on sale.`]
    : [];
  const discountLine = !d
    ? []
    : d.freeShipping
      ? [`Discount code ${d.code}: free shipping`]
      : [`Discount code ${d.code}: -${formatMoney(d.amount)}`];
  return render({
    to: o.to,
    subject: `Order #${o.orderNumber} received`,
    greeting: hello(o.name),
    paragraphs: [`Thank you for your order. Total: ${formatMoney(o.totalPrice)}.`, ...deadline],
    lines: [...o.items.map((i) => `${i.qty} x ${i.name} at ${formatMoney(i.price)}`), ...discountLine],
    action: { label: 'View your order', url: `${publicUrl}/order/${o.orderId}` },
  });
}

export function orderShippedMail(
  publicUrl: string,
  o: {
    to: string;
    name: string;
    orderId: string;
    orderNumber: number;
    trackingNumbers: { number: string; trackingItem: string[] }[];
  },
): MailMessage {
  return render({
    to: o.to,
    subject: `Order #${o.orderNumber} has shipped`,
    greeting: hello(o.name),
    paragraphs: ['Good news: your order is on its way. Tracking numbers:'],
    lines: o.trackingNumbers.map((t) =>
      t.trackingItem.length ? `${t.number} (${t.trackingItem.join(', ')})` : t.number,
    ),
    action: { label: 'View your order', url: `${publicUrl}/order/${o.orderId}` },
  });
}

export function contactNoticeMail(
  publicUrl: string,
  c: { to: string; name: string; email: string; subject: string; message: string },
): MailMessage {
  return render({
    to: c.to,
    subject: `New contact message: ${c.subject}`,
    greeting: 'Hello,',
    paragraphs: [`${c.name} <${c.email}> wrote through the contact form:`, c.message],
    action: { label: 'Open support messages', url: `${publicUrl}/contactsupport` },
  });
}

/** An admin's answer to someone who wrote through the contact form (they have no account to read it in). */
export function supportReplyMail(c: { to: string; name: string; subject: string; message: string }): MailMessage {
  return render({
    to: c.to,
    subject: c.subject ? `Re: ${c.subject}` : 'Reply to your message',
    greeting: hello(c.name || undefined),
    paragraphs: ['Our support team replied to your message:', c.message],
  });
}

/** Tells a shopper that support answered in their conversation (the reply itself is read in the shop). */
export function supportReplyWaitingMail(publicUrl: string, c: { to: string; name: string }): MailMessage {
  return render({
    to: c.to,
    subject: 'Support replied to your message',
    greeting: hello(c.name || undefined),
    paragraphs: [`Our support team replied to your message at ${STORE_NAME}. Sign in to read it and answer.`],
    action: { label: 'Read the reply', url: `${publicUrl}/contactsupport` },
  });
}

/** Sent to the new address of an e-mail change: the switch happens only when this link is used. */
export function confirmEmailChangeMail(publicUrl: string, to: string, name: string, token: string): MailMessage {
  return render({
    to,
    subject: 'Confirm your new e-mail address',
    greeting: hello(name),
    paragraphs: [
      `You asked to sign in to ${STORE_NAME} with this address from now on.`,
      'Your account keeps its current address until you open this link. It is valid for 24 hours and works once.',
    ],
    action: { label: 'Use this e-mail address', url: `${publicUrl}/user/confirm-email/${token}` },
    footer: 'If you did not ask for this, you can ignore this e-mail: nothing changes.',
  });
}

/** Sent to the current address when a change to another address is asked for. */
export function emailChangeRequestedMail(publicUrl: string, to: string, name: string, newEmail: string): MailMessage {
  return render({
    to,
    subject: 'A change of your e-mail address was requested',
    greeting: hello(name),
    paragraphs: [
      `Someone signed in to your account asked to change its e-mail address to ${newEmail}.`,
      'The change happens only when the link sent to that address is opened.',
      'If this was not you, change your password now: that also cancels the change.',
    ],
    action: { label: 'Sign in', url: `${publicUrl}/login` },
  });
}

/** Sent to the old address once the change is confirmed. */
export function emailChangedMail(publicUrl: string, to: string, name: string, newEmail: string): MailMessage {
  return render({
    to,
    subject: 'Your e-mail address was changed',
    greeting: hello(name),
    paragraphs: [
      `Your account now signs in with ${newEmail}; this address is no longer used for it.`,
      'If this was not you, contact us at once by replying to this e-mail.',
    ],
    action: { label: 'Contact support', url: `${publicUrl}/contact` },
  });
}

/**
 * Sent to an address that already has an account when someone registers with it or asks to move
 * another account to it: the request is answered as if the address were free, and only the owner learns.
 */
export function addressInUseMail(
  publicUrl: string,
  to: string,
  name: string,
  attempt: 'register' | 'change',
): MailMessage {
  return render({
    to,
    subject:
      attempt === 'register'
        ? 'Someone tried to register with your address'
        : 'Your address was offered for another account',
    greeting: hello(name),
    paragraphs: [
      attempt === 'register'
        ? `Someone tried to create a ${STORE_NAME} account with this e-mail address, which already has one.`
        : `Someone asked to move another ${STORE_NAME} account to this e-mail address, which already has one.`,
      'Nothing was changed. If it was you, sign in, or reset your password if you forgot it.',
    ],
    action: { label: 'Reset my password', url: `${publicUrl}/forgotpw` },
    footer: 'If it was not you, you can ignore this e-mail: your account stays as it is.',
  });
}

interface OrderRef {
  to: string;
  name: string;
  orderId: string;
  orderNumber: number;
}

/** The order was cancelled (by the shopper, an admin, or because it was not paid in time). */
export function orderCancelledMail(
  publicUrl: string,
  o: OrderRef & { why: string; refunded: number | null },
): MailMessage {
  return render({
    to: o.to,
    subject: `Order #${o.orderNumber} is cancelled`,
    greeting: hello(o.name),
    paragraphs: [
      `Your order #${o.orderNumber} is cancelled: ${o.why}`,
      ...(o.refunded ? [`${formatMoney(o.refunded)} is refunded to your PayPal account.`] : []),
    ],
    action: { label: 'View your order', url: `${publicUrl}/order/${o.orderId}` },
  });
}

/** A refund (part or all of what was paid). */
export function orderRefundedMail(
  publicUrl: string,
  o: OrderRef & { amount: number; reason: string; refundedInAll: number; total: number },
): MailMessage {
  const full = o.refundedInAll >= o.total;
  return render({
    to: o.to,
    subject: `Refund for order #${o.orderNumber}`,
    greeting: hello(o.name),
    paragraphs: [
      `We refunded ${formatMoney(o.amount)} of your order #${o.orderNumber}${o.reason ? ` (${o.reason})` : ''}.`,
      full
        ? 'Your order is now refunded in full.'
        : `Refunded so far: ${formatMoney(o.refundedInAll)} of ${formatMoney(o.total)}.`,
      'The money goes back to the account you paid with; your bank may take a few days to show it.',
    ],
    action: { label: 'View your order', url: `${publicUrl}/order/${o.orderId}` },
  });
}

/** A payment arrived for an order already cancelled: refunded at once, or (when PayPal refused) by hand soon. */
export function paymentAfterCancelMail(
  publicUrl: string,
  o: OrderRef & { amount: number; refunded: boolean },
): MailMessage {
  return render({
    to: o.to,
    subject: `Your payment for order #${o.orderNumber}`,
    greeting: hello(o.name),
    paragraphs: [
      `We received your payment of ${formatMoney(o.amount)} for order #${o.orderNumber}, but the order had already been cancelled.`,
      o.refunded
        ? 'We refunded the payment in full; your bank may take a few days to show it.'
        : 'We will refund it in full shortly; you do not need to do anything.',
    ],
    action: { label: 'View your order', url: `${publicUrl}/order/${o.orderId}` },
  });
}
