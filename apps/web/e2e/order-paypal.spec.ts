import { expect, test } from '@playwright/test';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { plainProduct } from './helpers.ts';

// PayPal cannot be reached from the tests: the server's answer is replaced to exercise the SDK loader.
test('with PayPal configured but unreachable the loader retries 3 times, then says so; Reload starts over', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const product = await plainProduct(request, 6);
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, uniqueEmail('paypal'));

  const sdkLoads: string[] = [];
  await page.route('https://www.paypal.com/**', (route) => {
    sdkLoads.push(route.request().url());
    return route.abort();
  });
  await page.route('**/api/config/paypal', (route) =>
    route.fulfill({ json: { clientId: 'sb-test', testMode: false } }),
  );

  await page.goto(`/order/${order._id}`);
  await expect(page.getByText('Attempt 1/3')).toBeVisible();
  await expect(page.getByText('Failed to initialize PayPal SDK')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Test mode: pay without PayPal' })).toHaveCount(0);
  expect(sdkLoads).toHaveLength(3);
  // alternating namespaces between attempts
  expect(sdkLoads.map((u) => new URL(u).searchParams.get('client-id'))).toEqual(['sb-test', 'sb-test', 'sb-test']);
  const namespaces = await page.evaluate(() =>
    [...document.querySelectorAll('script[data-namespace]')].map((s) => s.getAttribute('data-namespace')),
  );
  expect(new Set(namespaces).size).toBeGreaterThan(1);

  await page.getByRole('button', { name: 'Reload PayPal' }).click();
  await expect(page.getByText('Attempt 1/3')).toBeVisible();
});

test('without a PayPal client id the order page says so', async ({ page, request }) => {
  const product = await plainProduct(request, 6);
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, uniqueEmail('paypal'));
  await page.route('**/api/config/paypal', (route) => route.fulfill({ json: { clientId: '', testMode: false } }));
  await page.goto(`/order/${order._id}`);
  await expect(page.getByText('Missing PayPal Client ID')).toBeVisible();
});
