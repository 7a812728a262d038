import { CONTACT_MESSAGES, contactSchema } from '@store/shared';
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '#web/lib/auth.ts';
import { anyRequired, contactDefaults, contactResolver } from './contact-form.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<typeof contactResolver>[2];
const filled = { name: 'Vera', email: 'vera@example.test', subject: 'Parcel', message: 'Where is it?', grecaptcha: '' };

describe('the contact form', () => {
  it('marks each empty field by name and sums up with the API sentence', async () => {
    const { errors } = await contactResolver({ ...filled, name: ' ', subject: '' }, undefined, options);
    expect(errors.name?.message).toBe('Name is required');
    expect(errors.subject?.message).toBe('Subject is required');
    expect(errors.email).toBeUndefined();
    expect(anyRequired(errors)).toBe(true);

    const none = await contactResolver({ name: '', email: '', subject: '', message: '' }, undefined, options);
    expect(Object.fromEntries(Object.entries(none.errors).map(([k, e]) => [k, e?.message]))).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      message: 'Message is required',
    });
  });

  it("keeps the server's other messages, and the API's own answer for an empty field", async () => {
    const { errors } = await contactResolver({ ...filled, email: 'nope', subject: '<b>hi</b>' }, undefined, options);
    expect(errors.email?.message).toBe(CONTACT_MESSAGES.email);
    expect(errors.subject?.message).toBe(CONTACT_MESSAGES.html);
    expect(anyRequired(errors)).toBe(false);
    // the shared schema the server validates with is untouched
    const api = contactSchema.safeParse({ ...filled, name: '' });
    expect(api.error?.issues.map((i) => i.message)).toEqual([CONTACT_MESSAGES.required]);
  });

  it('needs no captcha among its rules (it solves itself; a submit waits for it)', async () => {
    const ok = await contactResolver(filled, undefined, options);
    expect(ok.errors).toEqual({});
    expect(ok.values).toMatchObject({ name: 'Vera', email: 'vera@example.test' });
  });

  it("prefills a signed-in shopper's name and e-mail, not a guest's", () => {
    const user: UserInfo = {
      _id: 'u1',
      username: 'ada',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      isAdmin: false,
      isGuest: false,
      isActive: true,
      profileUpdateCount: 0,
      token: 't',
    };
    expect(contactDefaults(user)).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.test', subject: '' });
    expect(contactDefaults({ ...user, firstName: '', lastName: '' }).name).toBe('ada');
    expect(contactDefaults({ ...user, isGuest: true })).toMatchObject({ name: '', email: '' });
    expect(contactDefaults(null)).toMatchObject({ name: '', email: '' });
  });
});
