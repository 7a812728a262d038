import { expect, type Page } from '@playwright/test';
import { readMails, type StoredMail } from './mail-server.ts';

import { ADMIN } from './env.ts';

export { ADMIN };

/** A unique address and username per call (tests share one database). */
export function uniqueUser(prefix: string) {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    username: `${prefix}_${tag}`,
    email: `${prefix}.${tag}@example.test`,
    password: 'Str0ng!Passw0rd',
  };
}

/** Waits for a mail to `to` whose subject matches, and answers it (mail is sent after commit, by a worker). */
export async function waitForMail(to: string, subject: RegExp, timeoutMs = 20_000): Promise<StoredMail> {
  let found: StoredMail | undefined;
  await expect
    .poll(
      () => {
        found = readMails().find((m) => m.to.includes(to.toLowerCase()) && subject.test(m.subject));
        return Boolean(found);
      },
      { timeout: timeoutMs, intervals: [200, 500, 1000] },
    )
    .toBe(true);
  return found!;
}

/** The path of the first link to `${PUBLIC_URL}${prefix}/…` in a mail. */
export function linkPath(mail: StoredMail, prefix: string): string {
  const m = new RegExp(`https?://[^/\\s]+(${prefix.replace(/\//g, '\\/')}/[A-Za-z0-9_-]+)`).exec(mail.text);
  if (!m?.[1]) throw new Error(`no ${prefix} link in: ${mail.text}`);
  return m[1];
}

/** Waits for the real ALTCHA widget inside `scope` to solve itself (it does as it appears; low difficulty in e2e). */
export async function solveCaptcha(page: Page, scope = page.locator('body')) {
  const slot = scope.locator('[data-captcha="altcha"]');
  await expect(slot).toHaveAttribute('data-captcha-state', 'verified', { timeout: 20_000 });
}

/** Signs in through the form. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await solveCaptcha(page);
  const button = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(button).toBeEnabled();
  await button.click();
}

/** Signs the admin in through the form; answers its bearer token (for API calls of the test). */
export async function signInAdmin(page: Page): Promise<string> {
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/');
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { token?: string }).token,
  );
  expect(token).toBeTruthy();
  return token!;
}

/** An active account made through the real sign-up form and the link of its confirmation mail. */
export async function registerAndConfirm(page: Page, user: ReturnType<typeof uniqueUser>) {
  await page.goto('/register');
  await page.getByLabel('First Name').fill(user.firstName);
  await page.getByLabel('Last Name').fill(user.lastName);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(page).toHaveURL(/\/registerconfirm\//);
  await page.goto(linkPath(await waitForMail(user.email, /confirm/i), '/user/confirm'));
  await expect(page.getByRole('heading', { name: 'Email Confirmed' })).toBeVisible();
}
