import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { addressUpdateSchema } from './users-api.ts';
import {
  adminUserUpdateSchema,
  changePasswordFormSchema,
  changePasswordSchema,
  cleanName,
  cleanUsername,
  loginSchema,
  profileSchema,
  registerFormSchema,
  registerSchema,
  resetPasswordFormSchema,
  resetPasswordSchema,
} from './users.ts';

/** Messages by field path, first one per field, the way a form shows them. */
function messages(schema: z.ZodType, input: unknown): Record<string, string> {
  const r = schema.safeParse(input);
  const out: Record<string, string> = {};
  if (r.success) return out;
  for (const i of r.error.issues) out[i.path.join('.')] ??= i.message;
  return out;
}

const goodRegister = {
  firstName: 'ada',
  lastName: 'lovelace',
  username: 'ada_l',
  email: 'Ada@Example.COM ',
  password: 'Secret-123',
};

describe('login rules', () => {
  it('requires an e-mail, refuses markup, then checks the format', () => {
    expect(messages(loginSchema, { email: '', password: 'x' })).toEqual({ email: 'Email required' });
    expect(messages(loginSchema, { password: 'x' })).toEqual({ email: 'Email required' });
    expect(messages(loginSchema, { email: '<b>a@b.co</b>', password: 'x' })).toEqual({ email: 'Invalid' });
    expect(messages(loginSchema, { email: 'not-an-email', password: 'x' })).toEqual({ email: 'Invalid email format' });
  });
  it('requires a password and keeps its spaces', () => {
    expect(messages(loginSchema, { email: 'a@b.co', password: '' })).toEqual({ password: 'Password required' });
    expect(loginSchema.parse({ email: ' A@B.co ', password: ' pw ' })).toEqual({ email: 'a@b.co', password: ' pw ' });
  });
});

describe('register rules', () => {
  it('accepts a good registration and cleans it', () => {
    expect(registerSchema.parse(goodRegister)).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      username: 'ada_l',
      email: 'ada@example.com',
      password: 'Secret-123',
    });
  });
  it('gives the exact messages for names', () => {
    expect(messages(registerSchema, { ...goodRegister, firstName: ' ' })).toEqual({ firstName: 'First name required' });
    expect(messages(registerSchema, { ...goodRegister, lastName: '' })).toEqual({ lastName: 'Last name required' });
    expect(messages(registerSchema, { ...goodRegister, firstName: '<i>Ada</i>' })).toEqual({
      firstName: 'No HTML allowed',
    });
    expect(messages(registerSchema, { ...goodRegister, lastName: 'x'.repeat(51) })).toEqual({ lastName: 'Too long' });
  });
  it('checks the username characters and length', () => {
    expect(messages(registerSchema, { ...goodRegister, username: 'ada lovelace' })).toEqual({
      username: 'Invalid characters',
    });
    expect(messages(registerSchema, { ...goodRegister, username: 'a'.repeat(31) })).toEqual({ username: 'Too long' });
    expect(messages(registerSchema, { ...goodRegister, username: '' })).toEqual({ username: 'Username required' });
  });
  it('checks the e-mail and the password strength', () => {
    expect(messages(registerSchema, { ...goodRegister, email: 'ada@' })).toEqual({ email: 'Invalid email format' });
    expect(messages(registerSchema, { ...goodRegister, email: `${'a'.repeat(250)}@x.com` })).toEqual({
      email: 'Too long',
    });
    for (const password of ['alllower1!', 'ALLUPPER1!', 'NoDigits!!', 'NoSpecial12'])
      expect(messages(registerSchema, { ...goodRegister, password })).toEqual({
        password: 'Min 8 chars, upper, lower, digit, special',
      });
    expect(messages(registerSchema, { ...goodRegister, password: 'Ab1!' })).toEqual({
      password: 'Min 8 chars, upper, lower, digit, special',
    });
    expect(messages(registerSchema, { ...goodRegister, password: '' })).toEqual({ password: 'Password required' });
  });
  it('in the form, needs the confirmation, a match and the captcha', () => {
    const form = { ...goodRegister, grecaptcha: 'x' };
    expect(messages(registerFormSchema, { ...form, confirmPassword: '' })).toEqual({
      confirmPassword: 'Confirm password',
    });
    expect(messages(registerFormSchema, { ...form, confirmPassword: 'Secret-124' })).toEqual({
      confirmPassword: 'Passwords must match',
    });
    expect(messages(registerFormSchema, { ...form, confirmPassword: 'Secret-123', grecaptcha: '' })).toEqual({
      grecaptcha: 'Captcha required',
    });
    expect(messages(registerFormSchema, { ...form, confirmPassword: 'Secret-123' })).toEqual({});
  });
});

describe('name and username cleaning', () => {
  it('keeps letters, apostrophes, hyphens and spaces, capitalised, at most 50', () => {
    expect(cleanName("  jean-luc   o'neil 3rd\u200B ")).toBe("Jean-Luc O'neil Rd");
    expect(cleanName('émile zola')).toBe('Émile Zola');
    expect(cleanName('a'.repeat(60))).toHaveLength(50);
  });
  it('drops leading dots and hyphens and collapses repeats', () => {
    expect(cleanUsername('..-ada..l__x--y')).toBe('ada.l_x-y');
  });
});

describe('profile rules', () => {
  it('says Required, Invalid and Invalid format', () => {
    const ok = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
    expect(messages(profileSchema, { ...ok, firstName: '' })).toEqual({ firstName: 'Required' });
    expect(messages(profileSchema, { ...ok, lastName: '<b>x</b>' })).toEqual({ lastName: 'Invalid' });
    expect(messages(profileSchema, { ...ok, email: ' ' })).toEqual({ email: 'Required' });
    expect(messages(profileSchema, { ...ok, email: 'nope' })).toEqual({ email: 'Invalid format' });
    expect(profileSchema.parse({ ...ok, firstName: '  Ada   May ', email: ' ADA@Example.com' })).toMatchObject({
      firstName: 'Ada May',
      email: 'ada@example.com',
    });
  });
});

describe('password change and reset', () => {
  it('needs every field, a strong new password and a matching confirmation', () => {
    expect(messages(changePasswordSchema, { currentPassword: '', password: 'Whatever-1' })).toEqual({
      currentPassword: 'All fields are required',
    });
    expect(messages(changePasswordSchema, { currentPassword: 'x', password: 'short' })).toEqual({
      password: 'New password must be at least 8 characters',
    });
    // change and reset follow the rule a new account's password does
    for (const weak of ['aaaaaaaa', 'longenough', 'Longenough1', 'LONGENOUGH-1'])
      expect(messages(resetPasswordSchema, { newPassword: weak })).toEqual({
        newPassword: 'Min 8 chars, upper, lower, digit, special',
      });
    expect(
      messages(changePasswordFormSchema, {
        currentPassword: 'x',
        password: 'Long-enough1',
        confirmPassword: 'different',
      }),
    ).toEqual({
      confirmPassword: 'New passwords do not match',
    });
    expect(messages(resetPasswordFormSchema, { newPassword: 'Long-enough1', confirmPassword: 'Long-enougH1' })).toEqual(
      {
        confirmPassword: 'Passwords do not match.',
      },
    );
  });
});

describe('shipping address on the profile', () => {
  it('cleans the fields and requires the mandatory ones', () => {
    const parsed = addressUpdateSchema.parse({
      email: ' Guest@Example.com ',
      shippingAddress: {
        shipToFirstName: ' Ada ',
        shipToLastName: 'Love<lace>',
        address1: '1 Main   St',
        city: 'Springfield',
        state: 'il',
        postalCode: '62701',
        country: 'US',
      },
    });
    expect(parsed.email).toBe('guest@example.com');
    expect(parsed.shippingAddress).toMatchObject({
      shipToLastName: 'Lovelace',
      address1: '1 Main St',
      address2: '',
      state: 'IL',
    });
    expect(messages(addressUpdateSchema, { shippingAddress: { ...parsed.shippingAddress, city: ' ' } })).toEqual({
      'shippingAddress.city': 'City is required',
    });
  });
});

describe('admin edit of a user', () => {
  it('changes only what is sent, and refuses a body that changes nothing', () => {
    expect(adminUserUpdateSchema.parse({ isActive: false })).toEqual({ isActive: false });
    for (const body of [{}, { password: 'Secret-123!' }])
      expect(messages(adminUserUpdateSchema, body), JSON.stringify(body)).toEqual({ '': 'Nothing to update' });
    expect(messages(adminUserUpdateSchema, { firstName: ' ' })).toEqual({ firstName: 'First name required' });
  });
});
