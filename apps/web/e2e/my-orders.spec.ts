import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Order } from '@store/shared';
import { registerAndConfirm, signIn, uniqueUser } from './accounts.ts';
import { US_ADDRESS } from './checkout.ts';
import { freshPage, plainProduct } from './helpers.ts';

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** An order of the signed-in account, placed through the API with its bearer token; paid in test mode if asked. */
async function orderOf(request: APIRequestContext, token: string, productId: string, email: string, paid: boolean) {
  const headers = { authorization: `Bearer ${token}` };
  const res = await request.post('/api/orders', {
    headers,
    data: {
      email,
      shippingAddress: {
        shipToFirstName: US_ADDRESS.firstName,
        shipToLastName: US_ADDRESS.lastName,
        address1: US_ADDRESS.address1,
        city: US_ADDRESS.city,
        state: 'DC',
        postalCode: US_ADDRESS.postalCode,
        country: 'US',
        email,
      },
      paymentMethod: 'PayPal',
      orderItems: [{ product: productId, qty: 1 }],
    },
  });
  expect(res.status()).toBe(201);
  const order = (await res.json()) as Order;
  if (paid) {
    const pay = await request.put(`/api/orders/${order._id}/pay`, {
      headers,
      data: { paymentResult: { id: `TEST-${order._id}`, status: 'COMPLETED', update_time: new Date().toISOString() } },
    });
    expect(pay.status()).toBe(200);
  }
  return order;
}

/** A confirmed account with two orders (one paid), signed in on a page of the given width, on its profile. */
async function profileWithOrders(
  browser: import('@playwright/test').Browser,
  request: APIRequestContext,
  width: number,
) {
  const product = await plainProduct(request, 2);
  const user = uniqueUser('myorders');
  const page = await freshPage(browser, { width, height: 800 });
  await registerAndConfirm(page, user);
  await page.goto('/login');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL('/');
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { token: string }).token,
  );
  const unpaid = await orderOf(request, token, product._id, user.email, false);
  const paid = await orderOf(request, token, product._id, user.email, true);
  await page.goto('/profile');
  return { page, unpaid, paid };
}

test('at 375 px My Orders shows each order as a card: nothing scrolls sideways, Details opens the order', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const { page, unpaid, paid } = await profileWithOrders(browser, request, 375);
  const cards = page.getByTestId('my-order-card');
  await expect(cards).toHaveCount(2);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  const paidCard = cards.filter({ hasText: paid._id });
  await expect(paidCard).toContainText(`$${paid.totalPrice.toFixed(2)}`);
  await expect(paidCard).toContainText(/Paid:\s*\d/);
  await expect(cards.filter({ hasText: unpaid._id })).toContainText(/Paid:\s*✗\s*No/);
  const details = page.getByRole('link', { name: `Details of order ${unpaid._id}` });
  await expect(details).toBeVisible();
  const box = (await details.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await details.click();
  await expect(page).toHaveURL(`/order/${unpaid._id}`);
  await page.context().close();
});

test('on a desktop the My Orders Details buttons show whole, with nothing to scroll sideways', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  // a laptop shows the cards, a wide screen the table
  for (const [width, layout] of [
    [1280, 'cards'],
    [1440, 'table'],
  ] as const) {
    const { page, paid, unpaid } = await profileWithOrders(browser, request, width);
    if (layout === 'table') {
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
      await expect(page.getByTestId('my-order-card').first()).toBeHidden();
    } else {
      await expect(page.getByTestId('my-order-card')).toHaveCount(2);
      await expect(page.getByRole('table')).toBeHidden();
    }
    expect(await horizontalOverflow(page), `page overflow at ${width} px`).toBeLessThanOrEqual(0);
    const scrollers = await page
      .locator('.table-responsive:visible')
      .evaluateAll((els) => els.map((el) => el.scrollWidth - el.clientWidth));
    for (const overflow of scrollers) expect(overflow, `table overflow at ${width} px`).toBeLessThanOrEqual(0);
    const tab = (await page.getByRole('region', { name: 'My Orders' }).boundingBox())!;
    for (const order of [paid, unpaid]) {
      const details = page.getByRole('link', { name: `Details of order ${order._id}` });
      await expect(details).toBeVisible();
      const box = (await details.boundingBox())!;
      expect(box.x + box.width, `Details at ${width} px`).toBeLessThanOrEqual(tab.x + tab.width);
    }
    await page.getByRole('link', { name: `Details of order ${paid._id}` }).click();
    await expect(page).toHaveURL(`/order/${paid._id}`);
    await page.context().close();
  }
});
