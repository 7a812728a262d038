import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, users } from '#server/db/schema/index.ts';
import { hashToken } from '#server/lib/tokens.ts';
import { NO_WORKER, PASSWORD, createAccount, lastMailTo, mailCount } from '#test/accounts.ts';
import { solveCaptcha } from '#test/captcha.ts';
import { linkToken } from '#test/smtp.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, payload });
const captcha = () => solveCaptcha(t.app);
const PUBLIC_URL = 'https://shop.example.test';

let n = 0;
const newPerson = () => {
  n++;
  return {
    firstName: 'ada',
    lastName: 'lovelace',
    username: `ada_${n}`,
    email: `Ada.${n}@Example.com`,
    password: PASSWORD,
  };
};

async function registerOne(person = newPerson()) {
  const res = await post('/api/users', { ...person, grecaptcha: await captcha() });
  expect(res.statusCode, res.body).toBe(201);
  const mail = await lastMailTo(t.database.db, person.email.toLowerCase());
  return { person, body: res.json(), mail: mail!, confirmToken: linkToken(mail!, `${PUBLIC_URL}/user/confirm`) };
}

const login = async (email: string, password = PASSWORD) =>
  post('/api/users/login', { email, password, grecaptcha: await captcha() });

describe('register, confirm and sign in', () => {
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL }, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('creates an inactive account, queues the confirmation mail and answers a registerconfirm token', async () => {
    const { person, body, mail } = await registerOne();
    const email = person.email.toLowerCase();
    expect(body).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      isActive: false,
      isGuest: false,
      isAdmin: false,
      profileUpdateCount: 0,
    });
    expect(body.message).toContain(email);
    expect(body.registerToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.token).toBe(body.registerToken);
    // it is the sign-up token, not a bearer token: nothing opens with it
    const asBearer = await t.app.inject({
      method: 'GET',
      url: '/api/orders/myorders',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(asBearer.statusCode).toBe(401);
    expect(mail.subject).toContain('Confirm your e-mail');
    expect(mail.text).toContain(`${PUBLIC_URL}/user/confirm/`);
    expect(mail.html).toContain(`${PUBLIC_URL}/user/confirm/`);
    // the tokens are kept hashed only
    const stored = await t.database.db.select().from(authTokens).where(eq(authTokens.userId, body._id));
    expect(stored.map((s) => s.purpose).sort()).toEqual(['confirm', 'signup']);
    expect(stored.some((s) => s.tokenHash === hashToken(body.registerToken))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(body.registerToken);

    const confirmPage = await post(`/api/users/registerconfirm/${body.registerToken}`, {});
    expect(confirmPage.json()).toEqual({ message: email });
    expect((await post(`/api/users/registerconfirm/${body.registerToken}`, {})).json()).toEqual({ message: email });
    const unknown = await post('/api/users/registerconfirm/not-a-real-token', {});
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Invalid or expired link', code: 'NOT_FOUND' });
  });

  it('refuses an unconfirmed sign-in with a reason, then activates on the link, once', async () => {
    const { person, confirmToken } = await registerOne();
    const before = await login(person.email);
    expect(before.statusCode).toBe(401);
    expect(before.json().message).toMatch(/^Please confirm your email address/);
    expect(before.json().code).toBe('EMAIL_UNCONFIRMED');

    const confirmed = await post(`/api/users/confirm/${confirmToken}`, {});
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ message: 'Email confirmed. Your account is now active.' });
    const again = await post(`/api/users/confirm/${confirmToken}`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'Invalid or expired confirmation link', code: 'BAD_REQUEST' });

    const res = await login(person.email.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(
      [
        '_id',
        'email',
        'firstName',
        'isActive',
        'isAdmin',
        'isGuest',
        'lastName',
        'profileUpdateCount',
        'shippingAddress',
        'token',
        'username',
      ].sort(),
    );
    expect(body).toMatchObject({ email: person.email.toLowerCase(), isActive: true });
    const profile = await t.app.inject({
      method: 'PUT',
      url: '/api/users/profile',
      headers: { authorization: `Bearer ${body.token}` },
      payload: { firstName: 'Ada', lastName: 'King', email: person.email },
    });
    expect(profile.statusCode, profile.body).toBe(200);
  });

  it('refuses an expired confirmation link', async () => {
    const { confirmToken } = await registerOne();
    await t.database.db
      .update(authTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authTokens.tokenHash, hashToken(confirmToken)));
    const res = await post(`/api/users/confirm/${confirmToken}`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid or expired confirmation link');
  });

  it('keeps one account per e-mail address without telling a stranger the address is taken', async () => {
    const { person } = await registerOne();
    const mailsBefore = await mailCount(t.database.db, person.email.toLowerCase());
    const again = { ...newPerson(), email: person.email.toUpperCase() };
    const sameEmail = await post('/api/users', { ...again, grecaptcha: await captcha() });
    // the answer has the shape and words of a new registration ...
    expect(sameEmail.statusCode, sameEmail.body).toBe(201);
    expect(sameEmail.json()).toMatchObject({
      username: again.username,
      email: person.email.toLowerCase(),
      isActive: false,
      message: `Registration successful. A confirmation email was sent to ${person.email.toLowerCase()}.`,
    });
    expect(sameEmail.json()._id).toMatch(/^[0-9a-f]{24}$/);
    // ... its /registerconfirm page shows the address that was typed, as for a new one
    const page = await post(`/api/users/registerconfirm/${sameEmail.json().registerToken}`, {});
    expect(page.json()).toEqual({ message: person.email.toLowerCase() });
    // ... but no second account exists, and the owner is told instead of being sent a confirmation link
    const rows = await t.database.db.select().from(users).where(eq(users.email, person.email.toLowerCase()));
    expect(rows).toHaveLength(1);
    expect(await mailCount(t.database.db, person.email.toLowerCase())).toBe(mailsBefore + 1);
    const notice = await lastMailTo(t.database.db, person.email.toLowerCase());
    expect(notice!.subject).toMatch(/^Someone tried to register with your address/);
    expect(notice!.text).not.toContain('/user/confirm/');

    // usernames are public (they sign reviews): a taken one is still refused by name
    const sameName = await post('/api/users', {
      ...newPerson(),
      username: person.username.toUpperCase(),
      grecaptcha: await captcha(),
    });
    expect(sameName.statusCode).toBe(400);
    expect(sameName.json()).toEqual({ message: 'Username is already taken', code: 'BAD_REQUEST' });
  });

  it('lets one of two simultaneous registrations of an address win, and answers both alike', async () => {
    const a = newPerson();
    const b = { ...newPerson(), email: a.email.toUpperCase() };
    const [ra, rb] = await Promise.all([
      post('/api/users', { ...a, grecaptcha: await captcha() }),
      post('/api/users', { ...b, grecaptcha: await captcha() }),
    ]);
    expect([ra.statusCode, rb.statusCode]).toEqual([201, 201]);
    const rows = await t.database.db.select().from(users).where(eq(users.email, a.email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it('answers the exact messages for bad input', async () => {
    const cases: [object, string][] = [
      [{ firstName: '' }, 'First name required'],
      [{ lastName: '<b>x</b>' }, 'No HTML allowed'],
      [{ username: 'has space' }, 'Invalid characters'],
      [{ email: 'nope@' }, 'Invalid email format'],
      [{ password: 'password' }, 'Min 8 chars, upper, lower, digit, special'],
    ];
    for (const [change, message] of cases) {
      const res = await post('/api/users', { ...newPerson(), ...change, grecaptcha: 'unused' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message, code: 'BAD_REQUEST' });
    }
  });

  it('needs a captcha, and accepts a solved one only once', async () => {
    const missing = await post('/api/users', newPerson());
    expect(missing.json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
    const wrong = await post('/api/users', { ...newPerson(), grecaptcha: Buffer.from('{"x":1}').toString('base64') });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Captcha verification failed', code: 'CAPTCHA_FAILED' });
    const solved = await captcha();
    expect((await post('/api/users', { ...newPerson(), grecaptcha: solved })).statusCode).toBe(201);
    const replay = await post('/api/users', { ...newPerson(), grecaptcha: solved });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ message: 'Captcha verification failed', code: 'CAPTCHA_FAILED' });
    const noCaptchaLogin = await post('/api/users/login', { email: 'a@b.co', password: 'x' });
    expect(noCaptchaLogin.json()).toEqual({ message: 'Captcha required', code: 'CAPTCHA_REQUIRED' });
  });

  it('resends a confirmation only to an unconfirmed account, with the same answer for everyone', async () => {
    const { person, confirmToken } = await registerOne();
    const email = person.email.toLowerCase();
    const res = await post('/api/users/resendconfirmation', { email: person.email, grecaptcha: await captcha() });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(await mailCount(t.database.db, email)).toBe(2);
    const newToken = linkToken((await lastMailTo(t.database.db, email))!, `${PUBLIC_URL}/user/confirm`);
    expect(newToken).not.toBe(confirmToken);
    // the older link stops working when a new one is sent
    expect((await post(`/api/users/confirm/${confirmToken}`, {})).statusCode).toBe(400);
    expect((await post(`/api/users/confirm/${newToken}`, {})).statusCode).toBe(200);

    for (const other of [email, 'nobody@example.com']) {
      const before = await mailCount(t.database.db, other);
      const r = await post('/api/users/resendconfirmation', { email: other, grecaptcha: await captcha() });
      expect(r.json()).toEqual(answer);
      expect(await mailCount(t.database.db, other)).toBe(before);
    }
    expect((await post('/api/users/resendconfirmation', { email })).json()).toEqual({
      message: 'Captcha required',
      code: 'CAPTCHA_REQUIRED',
    });
  });

  it('says nothing about which of e-mail or password was wrong, and tells a deactivated account so', async () => {
    const { user } = await createAccount(t);
    const wrong = await login(user.email!, 'Wrong-pass1!');
    const unknown = await login('nobody@example.com');
    expect([wrong.statusCode, unknown.statusCode]).toEqual([401, 401]);
    expect(wrong.json()).toEqual({ message: 'Invalid email or password', code: 'BAD_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
    await t.database.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const off = await login(user.email!);
    expect(off.statusCode).toBe(401);
    expect(off.json()).toEqual({
      message: 'Your account has been deactivated. Please contact support.',
      code: 'ACCOUNT_DEACTIVATED',
    });
    expect((await post('/api/users/login', { email: '', password: '' })).json()).toEqual({
      message: 'Email required',
      code: 'BAD_REQUEST',
    });
  });
});
