import { expect, test } from '@playwright/test';
import { guestOrderViaApi, startGuest, uniqueEmail, US_ADDRESS } from './checkout.ts';
import { freshPage, plainProduct, seriousViolations } from './helpers.ts';

for (const theme of ['light', 'dark'] as const) {
  for (const width of [375, 1280]) {
    test(`shipping, placeorder and order pages are axe-clean (${theme}, ${width} px)`, async ({ browser, request }) => {
      test.setTimeout(90_000);
      const product = await plainProduct(request, 5);
      const page = await freshPage(browser, { theme, width });
      const email = uniqueEmail('a11y');
      await startGuest(page);

      await page.goto(`/cart/${product._id}?qty=1`);
      await expect(page.locator('.cart-line')).toHaveCount(1);
      await page.goto('/shipping');
      await expect(page.getByRole('heading', { name: 'Shipping' })).toBeVisible();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page.getByText('First name is required')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
      expect(overflow).toBe(false);

      await page.evaluate(
        ([a, mail]) => {
          localStorage.setItem(
            'shippingAddress',
            JSON.stringify({
              email: mail,
              shipToFirstName: a.firstName,
              shipToLastName: a.lastName,
              address1: a.address1,
              address2: '',
              city: a.city,
              state: 'DC',
              postalCode: a.postalCode,
              country: 'US',
            }),
          );
          localStorage.setItem('paymentMethod', JSON.stringify('PayPal'));
        },
        [US_ADDRESS, email] as const,
      );
      await page.goto('/placeorder');
      await expect(page.getByRole('button', { name: 'Place Order' })).toBeEnabled();
      expect(await seriousViolations(page)).toEqual([]);

      const order = await guestOrderViaApi(page, product._id, email);
      await page.goto(`/order/${order._id}`);
      await expect(page.getByRole('button', { name: 'Test mode: pay without PayPal' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }
}

test('the verify modal of a foreign order is axe-clean', async ({ browser, request }) => {
  const product = await plainProduct(request, 5);
  const owner = await freshPage(browser);
  await startGuest(owner);
  const order = await guestOrderViaApi(owner, product._id, uniqueEmail('modal'));
  await owner.context().close();

  const page = await freshPage(browser, { theme: 'dark' });
  await page.goto(`/order/${order._id}`);
  await page.getByRole('button', { name: 'Verify Order Access' }).click();
  await expect(page.getByRole('dialog', { name: 'Verify Order Access' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.context().close();
});
