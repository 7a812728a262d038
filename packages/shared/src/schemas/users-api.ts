import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { cleanText } from '../text.ts';
import { isEmail, normalizeEmail } from './users.ts';

/**
 * Shipping address saved on the profile, with basic cleaning and limits.
 * The checkout issue adds the strict per-country rules.
 */
const addressField = (label: string, max: number, required = true) =>
  z
    .string({ error: `${label} is required` })
    .transform((v) => cleanText(v))
    .pipe(
      z
        .string()
        .max(max, `${label} is too long`)
        .refine((v) => !required || v.length > 0, `${label} is required`),
    );

export const shippingAddressSchema = z.object({
  shipToFirstName: addressField('First name', LIMITS.shippingName),
  shipToLastName: addressField('Last name', LIMITS.shippingName),
  address1: addressField('Address', LIMITS.addressLine),
  address2: addressField('Address 2', LIMITS.addressLine, false).optional().default(''),
  city: addressField('City', LIMITS.city),
  state: addressField('State', LIMITS.state).transform((v) => v.toUpperCase()),
  postalCode: addressField('Postal code', LIMITS.postalCode).transform((v) => v.toUpperCase()),
  country: addressField('Country', LIMITS.country),
});
export type ShippingAddressInput = z.input<typeof shippingAddressSchema>;

/** The e-mail given at checkout: lowercased, no spaces, at most 254 characters. */
export const shippingEmailField = z
  .string({ error: 'Email is required' })
  .transform((v) => normalizeEmail(v).replace(/\s+/g, ''))
  .pipe(z.string().min(1, 'Email is required').refine(isEmail, 'Invalid email'));

/** PUT /api/users/profile with a shipping address (guests also send their e-mail). */
export const addressUpdateSchema = z.object({
  shippingAddress: shippingAddressSchema,
  email: shippingEmailField.optional(),
});

// ---- answers ------------------------------------------------------------------------------

export const shippingAddressOutSchema = z.object({
  shipToFirstName: z.string(),
  shipToLastName: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
  country: z.string(),
});
export type ShippingAddress = z.infer<typeof shippingAddressOutSchema>;

/** The user fields every user answer carries (sign-in, register, profile, guest session). */
export const userSchema = z.object({
  _id: z.string(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  isActive: z.boolean(),
  isGuest: z.boolean(),
  profileUpdateCount: z.number(),
  shippingAddress: shippingAddressOutSchema.nullable().optional(),
  /** An address change waiting for the link sent to this address; `email` stays the sign-in address until then. */
  pendingEmail: z.string().optional(),
});
export type User = z.infer<typeof userSchema>;

/** Login (and profile updates of registered users): the user with a bearer token. */
export const authUserSchema = userSchema.extend({ token: z.string() });
export type AuthUser = z.infer<typeof authUserSchema>;

/**
 * Register: no bearer token (an unconfirmed account cannot sign in); `registerToken` (also answered as `token`,
 * for clients that read that field) opens /registerconfirm/{token}.
 */
export const registerResponseSchema = userSchema.extend({
  message: z.string(),
  registerToken: z.string(),
  token: z.string(),
});
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const adminUserSchema = userSchema.extend({ createdAt: z.string() });
export type AdminUser = z.infer<typeof adminUserSchema>;

const queryBool = z.enum(['true', 'false', '']).transform((v) => (v === '' ? undefined : v === 'true'));

export const USER_SORTS = ['createdAt', 'username', 'name', 'email'] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** GET /api/users: filters of the admin list, or `search` for recipient suggestions (at most 50). */

export const userListQuerySchema = z.object({
  id: z.string().max(24).optional(),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
  email: z.string().max(LIMITS.email).optional(),
  isAdmin: queryBool.optional(),
  search: z.string().max(100).optional(),
  /** createdAt (default, newest first), username, name (last then first) or email; `order` asc or desc. */
  sortBy: z.enum(USER_SORTS).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(20),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export const userListResponseSchema = z.object({
  users: z.array(adminUserSchema),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type UserListResponse = z.infer<typeof userListResponseSchema>;

export const userCountSchema = z.object({ count: z.number() });

export const CAPTCHA_PROVIDERS = ['altcha', 'recaptcha', 'none'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** GET /api/config/captcha: which widget the web app shows. */
export const captchaConfigSchema = z.object({
  provider: z.enum(CAPTCHA_PROVIDERS),
  siteKey: z.string().optional(),
  challengeUrl: z.string(),
});
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;
