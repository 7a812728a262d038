import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { cleanMultiline, cleanText, hasHtml, stripInvisible } from '../text.ts';
import { EMAIL_RE, captchaAnswer, captchaRequired, normalizeEmail } from './users.ts';

/**
 * Reviews, contact form and support messages (field limits, text cleaning, the 1–5 review rating),
 * with their exact messages. The server validates requests with these; the web forms reuse them.
 */

export const REVIEW_MESSAGES = {
  rating: 'Please select a rating',
  duplicate: 'Product already reviewed',
  guest: 'Please sign in to write a review',
  success: 'Review submitted successfully',
} as const;

export const CONTACT_MESSAGES = {
  required: 'All fields are required',
  email: 'Invalid email',
  html: 'HTML/script not allowed',
  failed: 'An error occurred while submitting the form',
  success: 'Thank you! Your message has been sent.',
  tooLong: (label: string, max: number) => `${label} must be at most ${max.toLocaleString('en-US')} characters`,
} as const;

export const SUPPORT_MESSAGES = {
  empty: 'Message cannot be empty.',
  html: 'HTML or script tags are not allowed.',
  tooLong: `Message must be at most ${LIMITS.supportMessage} characters.`,
  recipient: 'Select a valid recipient from the list.',
  notYours: 'Not authorized to view this conversation',
  confirm: 'Are you sure you want to send this message?',
} as const;

// ---- reviews ------------------------------------------------------------------------------

export const reviewCreateSchema = z.object({
  rating: z.coerce
    .number({ error: REVIEW_MESSAGES.rating })
    .int(REVIEW_MESSAGES.rating)
    .min(1, REVIEW_MESSAGES.rating)
    .max(5, REVIEW_MESSAGES.rating),
  comment: z
    .string()
    .max(LIMITS.reviewComment * 2, `Comment must be at most ${LIMITS.reviewComment} characters`)
    .optional()
    .default('')
    .transform((v) => cleanMultiline(v, LIMITS.reviewComment)),
});
export type ReviewCreateInput = z.input<typeof reviewCreateSchema>;

// ---- contact ------------------------------------------------------------------------------

/**
 * Contact text: control characters stripped, newlines become spaces. Longer than the limit once cleaned
 * is refused (never cut: the end of a shopper's message must not be lost without a word).
 */
const contactText = (label: string, max: number, noHtml: boolean) =>
  z
    .string({ error: CONTACT_MESSAGES.required })
    .superRefine((v, ctx) => {
      if (!v.trim()) ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.required });
      else if (noHtml && hasHtml(v)) ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.html });
      else if (cleanText(v).length > max)
        ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.tooLong(label, max) });
    })
    .transform((v) => cleanText(v, max))
    .pipe(z.string().min(1, CONTACT_MESSAGES.required));

export const contactSchema = z.object({
  name: contactText('Name', LIMITS.contactName, false),
  email: z
    .string({ error: CONTACT_MESSAGES.required })
    .superRefine((v, ctx) => {
      const e = normalizeEmail(stripInvisible(v));
      if (!e) ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.required });
      else if (e.length > LIMITS.email || !EMAIL_RE.test(e))
        ctx.addIssue({ code: 'custom', message: CONTACT_MESSAGES.email });
    })
    .transform((v) => normalizeEmail(stripInvisible(v))),
  subject: contactText('Subject', LIMITS.contactSubject, true),
  message: contactText('Message', LIMITS.contactMessage, true),
  grecaptcha: captchaAnswer,
});
export type ContactInput = z.input<typeof contactSchema>;
export const contactFormSchema = contactSchema.extend({ grecaptcha: captchaRequired });

// ---- support messages ---------------------------------------------------------------------

export const supportContentField = z
  .string({ error: SUPPORT_MESSAGES.empty })
  .superRefine((v, ctx) => {
    if (!stripInvisible(v).trim()) ctx.addIssue({ code: 'custom', message: SUPPORT_MESSAGES.empty });
    else if (hasHtml(v)) ctx.addIssue({ code: 'custom', message: SUPPORT_MESSAGES.html });
    else if (v.trim().length > LIMITS.supportMessage)
      ctx.addIssue({ code: 'custom', message: SUPPORT_MESSAGES.tooLong });
  })
  .transform((v) => cleanMultiline(v, LIMITS.supportMessage))
  .pipe(z.string().min(1, SUPPORT_MESSAGES.empty));

export const messageSendSchema = z.object({
  /** Ignored: the server takes the sender from the token. */
  sender: z.string().max(300).optional(),
  /** 'admin' (or left out) for a user; a user id, username or contact e-mail for an admin. */
  recipient: z.string().max(300).optional(),
  content: supportContentField,
  grecaptcha: captchaAnswer,
});
export type MessageSendInput = z.input<typeof messageSendSchema>;

export const supportMessageSchema = z.object({
  _id: z.string(),
  sender: z.string(),
  recipient: z.string(),
  content: z.string(),
  timestamp: z.string(),
  isContact: z.boolean(),
  senderEmail: z.string(),
  fromAdmin: z.boolean(),
  subject: z.string(),
  senderName: z.string(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const recipientQuerySchema = z.object({ q: z.string().max(100).optional().default('') });
export const recipientSchema = z.object({
  /** What to send as `recipient` and to ask GET /api/messages/get/{id} for: a user id or an e-mail. */
  id: z.string(),
  kind: z.enum(['user', 'contact']),
  label: z.string(),
  username: z.string().optional(),
  email: z.string().optional(),
});
export type Recipient = z.infer<typeof recipientSchema>;
export const RECIPIENTS_MAX = 50;

// ---- support inbox ------------------------------------------------------------------------

export const SUPPORT_INBOX_PAGE_SIZE = 20;

export const inboxQuerySchema = z.object({
  /** Only conversations with customer messages no admin has read. */
  unread: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type InboxQuery = z.input<typeof inboxQuerySchema>;

export const inboxConversationSchema = z.object({
  _id: z.string(),
  kind: z.enum(['user', 'contact']),
  /** What to send as `recipient` and to ask GET /api/messages/get/{id} for: the user id or the contact e-mail. */
  recipient: z.string(),
  /** The customer's name (or username, or e-mail when they gave no name). */
  name: z.string(),
  username: z.string().nullable(),
  email: z.string(),
  subject: z.string(),
  lastMessage: z.object({ content: z.string(), timestamp: z.string(), fromAdmin: z.boolean() }),
  /** Customer messages no admin has read yet. */
  unread: z.number(),
});
export type InboxConversation = z.infer<typeof inboxConversationSchema>;

export const inboxPageSchema = z.object({
  conversations: z.array(inboxConversationSchema),
  page: z.number(),
  hasMore: z.boolean(),
});
export type InboxPage = z.infer<typeof inboxPageSchema>;

/** `unread`: support replies the signed-in shopper has not read; `inbox` (admins only): conversations waiting. */
export const supportUnreadSchema = z.object({ unread: z.number(), inbox: z.number().optional() });
export type SupportUnread = z.infer<typeof supportUnreadSchema>;
