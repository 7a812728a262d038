import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { cleanText, hasHtml } from '../text.ts';
import { changesSomething } from './common.ts';

/**
 * Account rules (login, register, profile, change and reset password) with the product's exact
 * exact messages. The server validates requests with these schemas; the web app validates its forms
 * with the *FormSchema variants (which add the confirm fields and a required captcha).
 */

// The HTML living standard's e-mail rule, with at least one dot in the domain.
export const EMAIL_RE =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const USERNAME_RE = /^[A-Za-z0-9_.-]+$/;
const STRONG_PASSWORD = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/];

/** Stored form of an address: trimmed and lowercased (one account per address, compared case-insensitively). */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

export function isEmail(input: string): boolean {
  return input.length <= LIMITS.email && EMAIL_RE.test(input);
}

/** Register name cleaning: letters, apostrophes, hyphens and spaces, at most 50, each word capitalised. */
export function cleanName(input: string, maxLength: number = LIMITS.registerName): string {
  const kept = cleanText(input)
    .replace(/[^\p{L}\p{M}' -]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength)
    .trim();
  return kept.replace(/(^|[\s-])(\p{Ll})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

/** Username cleaning: leading dots and hyphens removed, repeated dots, hyphens or underscores collapsed. */
export function cleanUsername(input: string): string {
  return cleanText(input)
    .replace(/^[.-]+/, '')
    .replace(/([._-])\1+/g, '$1');
}

export function isStrongPassword(password: string): boolean {
  return password.length >= LIMITS.passwordMin && STRONG_PASSWORD.every((re) => re.test(password));
}

type Rule = (value: string) => string | undefined;

/** A string field that reports at most one message: the first failing rule's. */
function field(requiredMessage: string, rule: Rule) {
  return z.string({ error: requiredMessage }).superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}

// ---- fields -------------------------------------------------------------------------------

/** Login, resend and forgot-password e-mail. */
export const emailField = field('Email required', (v) => {
  if (!v.trim()) return 'Email required';
  if (hasHtml(v)) return 'Invalid';
  if (!isEmail(normalizeEmail(v))) return 'Invalid email format';
}).transform(normalizeEmail);

const registerEmail = field('Email required', (v) => {
  if (!v.trim()) return 'Email required';
  if (v.trim().length > LIMITS.email) return 'Too long';
  if (!isEmail(normalizeEmail(v))) return 'Invalid email format';
}).transform(normalizeEmail);

const profileEmail = field('Required', (v) => {
  const e = normalizeEmail(v);
  if (!e) return 'Required';
  if (e.length > LIMITS.email || hasHtml(v)) return 'Invalid';
  if (!isEmail(e)) return 'Invalid format';
}).transform(normalizeEmail);

const personName = (requiredMessage: string) =>
  field(requiredMessage, (v) => {
    if (!v.trim()) return requiredMessage;
    if (hasHtml(v)) return 'No HTML allowed';
    if (v.trim().length > LIMITS.registerName) return 'Too long';
  })
    .transform((v) => cleanName(v))
    .pipe(z.string().min(1, requiredMessage));

const profileName = field('Required', (v) => {
  if (!v.trim()) return 'Required';
  if (hasHtml(v)) return 'Invalid';
  if (v.trim().length > LIMITS.registerName) return 'Too long';
}).transform((v) => cleanText(v));

export const usernameField = z
  .string({ error: 'Username required' })
  .transform(cleanUsername)
  .pipe(
    field('Username required', (v) => {
      if (!v) return 'Username required';
      if (v.length > LIMITS.username) return 'Too long';
      if (!USERNAME_RE.test(v)) return 'Invalid characters';
    }),
  );

const loginPassword = z
  .string({ error: 'Password required' })
  .min(1, 'Password required')
  .max(LIMITS.passwordMax, 'Too long');

export const strongPasswordField = field('Password required', (v) => {
  if (!v) return 'Password required';
  if (v.length > LIMITS.passwordMax) return 'Too long';
  if (!isStrongPassword(v)) return 'Min 8 chars, upper, lower, digit, special';
});

/** A new password (change and reset) follows the rule a new account's password does. */
const newPassword = field('All fields are required', (v) => {
  if (!v) return 'All fields are required';
  if (v.length < LIMITS.passwordMin) return 'New password must be at least 8 characters';
  if (v.length > LIMITS.passwordMax) return 'Too long';
  if (!isStrongPassword(v)) return 'Min 8 chars, upper, lower, digit, special';
});

/** The captcha answer as sent: optional here, the server's captcha check says 'Captcha required'. */
export const captchaAnswer = z.string().max(20_000, 'Captcha verification failed').optional();
/** In forms the widget must have produced an answer. */
export const captchaRequired = z.string({ error: 'Captcha required' }).min(1, 'Captcha required');

// ---- requests -----------------------------------------------------------------------------

export const loginSchema = z.object({ email: emailField, password: loginPassword, grecaptcha: captchaAnswer });
export type LoginInput = z.input<typeof loginSchema>;

export const registerSchema = z.object({
  firstName: personName('First name required'),
  lastName: personName('Last name required'),
  username: usernameField,
  email: registerEmail,
  password: strongPasswordField,
  grecaptcha: captchaAnswer,
});
export type RegisterInput = z.input<typeof registerSchema>;

export const resendConfirmationSchema = z.object({ email: emailField, grecaptcha: captchaAnswer });
export const forgotPasswordSchema = z.object({ email: emailField });
export const resetPasswordSchema = z.object({ newPassword });
export const guestSchema = z.object({ grecaptcha: captchaAnswer });

export const profileSchema = z.object({
  firstName: profileName,
  lastName: profileName,
  email: profileEmail,
  /** Required (by the server) only when `email` is a new address. */
  currentPassword: z.string().max(LIMITS.passwordMax, 'Too long').optional(),
  grecaptcha: captchaAnswer,
});
export type ProfileInput = z.input<typeof profileSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'All fields are required' })
    .min(1, 'All fields are required')
    .max(LIMITS.passwordMax, 'Too long'),
  password: newPassword,
  id: z.string().max(24).optional(),
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** Admin edit of a user (all fields optional: only what is sent changes, and something must be). */
export const adminUserUpdateSchema = changesSomething(
  z.object({
    firstName: personName('First name required').optional(),
    lastName: personName('Last name required').optional(),
    username: usernameField.optional(),
    email: registerEmail.optional(),
    isAdmin: z.boolean().optional(),
    isActive: z.boolean().optional(),
  }),
);
export type AdminUserUpdateInput = z.input<typeof adminUserUpdateSchema>;

// ---- forms (web) --------------------------------------------------------------------------

const bothStrings = (a: string, b: string) => (p: { value: unknown }) => {
  const v = p.value as Record<string, unknown> | undefined;
  return typeof v?.[a] === 'string' && typeof v?.[b] === 'string';
};

export const loginFormSchema = loginSchema.extend({ grecaptcha: captchaRequired });

export const registerFormSchema = registerSchema
  .extend({
    confirmPassword: z.string({ error: 'Confirm password' }).min(1, 'Confirm password'),
    grecaptcha: captchaRequired,
  })
  .refine((d) => d.password === d.confirmPassword, {
    message: 'Passwords must match',
    path: ['confirmPassword'],
    when: bothStrings('password', 'confirmPassword'),
  });

export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string({ error: 'All fields are required' }).min(1, 'All fields are required') })
  .refine((d) => d.password === d.confirmPassword, {
    message: 'New passwords do not match',
    path: ['confirmPassword'],
    when: bothStrings('password', 'confirmPassword'),
  });

export const resetPasswordFormSchema = resetPasswordSchema
  .extend({ confirmPassword: z.string({ error: 'All fields are required' }).min(1, 'All fields are required') })
  .refine((d) => d.newPassword === d.confirmPassword, {
    message: 'Passwords do not match.',
    path: ['confirmPassword'],
    when: bothStrings('newPassword', 'confirmPassword'),
  });
