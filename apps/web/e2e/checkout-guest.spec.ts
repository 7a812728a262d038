import { expect, test } from '@playwright/test';
import { solveCaptcha } from './accounts.ts';
import { fillShipping, uniqueEmail } from './checkout.ts';
import { cartBadge, plainProduct } from './helpers.ts';

test('a visitor checks out as a guest from the cart to the order page', async ({ page, request }) => {
  test.setTimeout(90_000);
  const product = await plainProduct(request, 3);
  const email = uniqueEmail('guest');
  // the captcha comes first: one that cannot be solved stops the guest checkout
  await page.route('**/api/captcha/challenge', (route) => route.abort());
  await page.goto(`/cart/${product._id}?qty=1`);
  await expect(page.locator('.cart-line')).toHaveCount(1);
  const captcha = page.locator('.cart-summary [data-captcha="altcha"]');
  await expect(captcha).toHaveAttribute('data-captcha-state', 'error');
  await page.getByRole('button', { name: 'Checkout As Guest' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please complete the captcha' })).toBeVisible();
  await expect(page.getByText('Guest Checkout Error')).toBeVisible();

  await page.unroute('**/api/captcha/challenge');
  await captcha.locator('altcha-widget label', { hasText: /robot/i }).click();
  await solveCaptcha(page, page.locator('.cart-summary'));
  await page.getByRole('button', { name: 'Checkout As Guest' }).click();
  await expect(page).toHaveURL('/shipping');
  await expect(page.getByRole('button', { name: 'GUEST' })).toBeVisible();

  // guests have no sign-in step
  const steps = page.getByRole('navigation', { name: 'Checkout steps' });
  await expect(steps.getByRole('listitem')).toHaveCount(3);
  await expect(steps).not.toContainText('Sign In');

  await page.getByLabel('Send me promotions & deals').check();
  const subscribed = page.waitForRequest((r) => r.url().endsWith('/api/mailing-list/subscribe'));
  await fillShipping(page, email);
  expect((await subscribed).postDataJSON()).toEqual({ email, source: 'shipping_opt_in' });

  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByTestId('paid-status')).toHaveText('Not Paid');
  await expect(cartBadge(page)).toHaveCount(0);
  // a guest sees no admin actions
  await expect(page.getByRole('button', { name: /^Mark As/ })).toHaveCount(0);

  // the cart is empty: Place Order cannot be pressed again
  await page.goto('/placeorder');
  await expect(page.getByRole('button', { name: 'Place Order' })).toBeDisabled();
});

test('/payment without a saved address goes to /shipping; /placeorder without a method goes to /payment', async ({
  page,
}) => {
  await page.goto('/');
  await page.evaluate(() =>
    localStorage.setItem(
      'userInfo',
      JSON.stringify({
        _id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        username: 'g',
        firstName: '',
        lastName: '',
        email: '',
        isAdmin: false,
        isGuest: true,
      }),
    ),
  );
  await page.goto('/payment');
  await expect(page).toHaveURL('/shipping');
  await page.evaluate(() =>
    localStorage.setItem(
      'shippingAddress',
      JSON.stringify({
        email: 'a@b.test',
        shipToFirstName: 'A',
        shipToLastName: 'B',
        address1: '1 Main St',
        address2: '',
        city: 'X',
        state: 'NY',
        postalCode: '10001',
        country: 'US',
      }),
    ),
  );
  await page.goto('/placeorder');
  await expect(page).toHaveURL('/payment');
});
