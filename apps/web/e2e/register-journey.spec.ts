import { expect, test } from '@playwright/test';
import { linkPath, signIn, solveCaptcha, uniqueUser, waitForMail } from './accounts.ts';

test('register → confirmation mail → confirm → sign in → edit the profile', async ({ page }) => {
  const user = uniqueUser('reg');
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Register', exact: true });
  await expect(submit).toBeDisabled();

  // the registration rules (packages/shared), as you type
  await page.getByLabel('First Name').fill('<b>');
  await expect(page.getByText('No HTML allowed')).toBeVisible();
  await page.getByLabel('First Name').fill(user.firstName);
  await page.getByLabel('Last Name').fill(user.lastName);
  await page.getByLabel('Username').fill('bad name!');
  await expect(page.getByText('Invalid characters')).toBeVisible();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill('weak');
  await expect(page.getByText('Min 8 chars, upper, lower, digit, special')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(`${user.password}x`);
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await page.getByLabel('Confirm Password').fill(user.password);
  // the captcha solves itself: Register waits for the fields only
  await expect(submit).toBeEnabled();
  await solveCaptcha(page);
  await submit.click();

  await expect(page).toHaveURL(/\/registerconfirm\/[A-Za-z0-9_-]+$/);
  await expect(page.getByText(user.email)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
  // the registration sent the first e-mail: a resend waits for the cooldown
  await expect(page.getByRole('button', { name: /^Resend in \d+s$/ })).toBeDisabled();

  // an unconfirmed account cannot sign in
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await signIn(page, user.email, user.password);
  await expect(page.getByRole('alert')).toContainText('confirm your email');

  const mail = await waitForMail(user.email, /confirm/i);
  await page.goto(linkPath(mail, '/user/confirm'));
  await expect(page.getByRole('heading', { name: 'Email Confirmed' })).toBeVisible();
  await expect(page.getByText('Thank you for confirming your email!')).toBeVisible();
  await expect(page.getByText('Your account is now active')).toBeVisible();
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
  await expect(page.getByRole('link')).toHaveCount(0);
  await expect(page.getByRole('button')).toHaveCount(0);
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'light');

  await page.goto('/login?redirect=/profile');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL('/profile');
  await expect(page.getByRole('button', { name: user.firstName })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(user.username);

  // edit the profile; then the 10 s cooldown
  await page.getByLabel('First Name').fill('Augusta');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Wait \d+s$/ })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Augusta' })).toBeVisible();
  const stored = await page.evaluate(
    () => JSON.parse(localStorage.getItem('userInfo') ?? 'null') as { firstName: string },
  );
  expect(stored.firstName).toBe('Augusta');

  // the orders side and the password side
  await expect(page.getByText('You have no orders yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Change Password' }).click();
  await page.getByLabel('Current Password').fill(user.password);
  await page.getByLabel('New Password', { exact: true }).fill('Another!Pass9');
  await page.getByLabel('Confirm New Password').fill('Another!Pass8');
  await expect(page.getByText('New passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm New Password').fill('Another!Pass9');
  await page.locator('form[aria-label="Change password"]').getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password updated successfully')).toBeVisible();

  // the session still works with the fresh token: a reload keeps the user signed in
  await page.reload();
  await expect(page.getByLabel('First Name')).toHaveValue('Augusta');
});
