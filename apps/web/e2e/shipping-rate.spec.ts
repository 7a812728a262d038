import { expect, test } from '@playwright/test';
import { fillShipping, startGuest, uniqueEmail } from './checkout.ts';

test('signed out, /shippingrate sends to sign-in on the way to /shipping', async ({ page }) => {
  await page.goto('/shippingrate');
  await expect(page).toHaveURL('/login?redirect=/shipping');
});

test('/shippingrate lists the offered rates, keeps the choice and moves on in the checkout', async ({ page }) => {
  await startGuest(page);
  // without an address it asks for one first
  await page.goto('/shippingrate');
  await expect(page).toHaveURL('/shipping');
  await fillShipping(page, uniqueEmail('rate'));

  await page.goto('/shippingrate');
  await expect(page.getByRole('heading', { name: 'Shipping Rate' })).toBeVisible();
  // the e2e server offers the default single rate (SHIPPING_RATES unset)
  const rate = page.getByRole('radio', { name: 'Free Shipping: FREE' });
  await expect(rate).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  // no payment method chosen yet: the payment step comes next
  await expect(page).toHaveURL('/payment');
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('shippingRate') ?? 'null'));
  expect(stored).toMatchObject({ id: 'free', price: 0 });

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');
  await page.goto('/shippingrate');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');
  await expect(page.getByTestId('summary-shipping')).toHaveText('FREE');
});
