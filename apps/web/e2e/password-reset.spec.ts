import { expect, test } from '@playwright/test';
import { LOGIN_DEBOUNCE_MS } from '@store/shared';
import { linkPath, registerAndConfirm, signIn, solveCaptcha, uniqueUser, waitForMail } from './accounts.ts';

test('forgot password → mail → reset → sign in with the new password', async ({ page }) => {
  const user = uniqueUser('fpw');
  await registerAndConfirm(page, user);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL('/forgotpw');
  // the page is a lazy chunk: until it renders, the sign-in form (with its own Email Address) stays up
  await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Email sent')).toBeVisible();

  const mail = await waitForMail(user.email, /password/i);
  await page.goto(linkPath(mail, '/users/resetpw'));
  const newPassword = 'Brand!New9pass';
  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Verify Password').fill(`${newPassword}?`);
  await expect(page.getByText('Passwords do not match.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset Password' })).toBeDisabled();
  await page.getByLabel('Verify Password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been reset')).toBeVisible();

  await page.getByRole('link', { name: 'Sign In', exact: true }).last().click();
  await expect(page).toHaveURL('/login');
  // the old password fails; a second submit while the first is under way is held back
  await page.route('**/api/users/login', async (route) => {
    await new Promise((r) => setTimeout(r, 1000)); // the answer takes a second: the submit is in flight
    await route.continue();
  });
  await signIn(page, user.email, user.password);
  await page.getByRole('form', { name: 'Sign in' }).evaluate((f: HTMLFormElement) => f.requestSubmit());
  await expect(page.getByText('Please wait a moment before retrying.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toBeVisible();
  await page.unroute('**/api/users/login');
  await page.waitForTimeout(LOGIN_DEBOUNCE_MS); // the rule is about time: let 1.5 s pass

  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await solveCaptcha(page);
  const submit = page.getByRole('button', { name: 'Sign In', exact: true });
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('button', { name: user.firstName })).toBeVisible();
});
