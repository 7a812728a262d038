import { expect, test } from '@playwright/test';
import { guestOrderViaApi, startGuest, uniqueEmail, US_ADDRESS } from './checkout.ts';
import { freshPage, plainProduct } from './helpers.ts';

test('a guest verifies e-mail and postal code to see and pay an order in a fresh browser', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const product = await plainProduct(request, 4);
  const email = uniqueEmail('access');
  const first = await freshPage(browser);
  await startGuest(first);
  const order = await guestOrderViaApi(first, product._id, email);
  await first.context().close();

  const page = await freshPage(browser);
  await page.goto(`/order/${order._id}`);
  // signed out, signing in comes first; the guest check is one click away
  await expect(page.getByRole('heading', { name: 'Sign in to see this order' })).toBeVisible();
  await page.getByRole('button', { name: 'Verify Order Access' }).click();
  const modal = page.getByRole('dialog', { name: 'Verify Order Access' });
  await expect(modal).toBeVisible();

  await modal.getByRole('button', { name: 'Verify' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Please enter email and postal code');

  await modal.getByLabel('Email').fill(email.toUpperCase());
  await modal.getByLabel('Postal Code').fill('99999');
  await modal.getByRole('button', { name: 'Verify' }).click();
  await expect(modal.getByRole('alert')).toHaveText('Verification failed');

  await modal.getByLabel('Postal Code').fill(US_ADDRESS.postalCode);
  await modal.getByRole('button', { name: 'Verify' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('heading', { name: `Order #${order.orderNumber}` })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByTestId('paid-status')).toHaveText('Not Paid');
  // the verified visitor is now treated as a guest (named GUEST, no token stored)
  await expect(page.getByRole('button', { name: 'GUEST' })).toBeVisible();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? 'null'));
  expect(stored).toMatchObject({ isGuest: true, email });
  expect(stored.token).toBeUndefined();

  // the token is kept for this order in session storage: a reload needs no new verification
  const token = await page.evaluate((id) => sessionStorage.getItem(`orderAccessToken:${id}`), order._id);
  expect(token).toBeTruthy();
  await page.reload();
  await expect(page.getByRole('heading', { name: `Order #${order.orderNumber}` })).toBeVisible();
  await expect(modal).toBeHidden();

  // and pays with it
  await page.getByRole('button', { name: 'Test mode: pay without PayPal' }).click();
  await expect(page.getByTestId('paid-status')).toContainText('Paid on');
  await page.context().close();
});
