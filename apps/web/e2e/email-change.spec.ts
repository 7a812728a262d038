import { expect, test } from '@playwright/test';
import { linkPath, registerAndConfirm, signIn, uniqueUser, waitForMail } from './accounts.ts';

test('changing the e-mail address: password, pending notice, link to the new address, then the switch', async ({
  page,
}) => {
  const user = uniqueUser('move');
  const newEmail = `moved.${user.username}@example.test`;
  await registerAndConfirm(page, user);
  await page.goto('/login?redirect=/profile');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL('/profile');

  // a new address asks for the current password before Update can be pressed
  const form = page.getByRole('form', { name: 'Profile' });
  await form.getByLabel('Email Address').fill(newEmail);
  await expect(form.getByLabel('Current Password')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Update' })).toBeDisabled();
  await form.getByLabel('Current Password').fill(user.password);
  await form.getByRole('button', { name: 'Update' }).click();
  await expect(page.locator('.toast').filter({ hasText: `We sent a confirmation link to ${newEmail}.` })).toBeVisible();
  // the address has not switched: the profile says which address the link went to
  await expect(form.getByTestId('pending-email')).toContainText(newEmail);
  await expect(form.getByTestId('pending-email')).toContainText(user.email);
  await page.reload();
  await expect(form.getByTestId('pending-email')).toContainText(newEmail);

  // the old address is told; the link goes to the new one
  await waitForMail(user.email, /change of your e-mail address was requested/i);
  const link = linkPath(await waitForMail(newEmail, /confirm your new e-mail/i), '/user/confirm-email');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Email Address Changed' })).toBeVisible();
  await expect(page.getByText('Sign in with the new address from now on.')).toBeVisible();
  await waitForMail(user.email, /your e-mail address was changed/i);

  // this browser takes the new address at once
  await page.goto('/profile');
  await expect(form.getByLabel('Email Address')).toHaveValue(newEmail);
  await expect(form.getByTestId('pending-email')).toHaveCount(0);
});
