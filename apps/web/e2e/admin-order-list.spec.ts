import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn, signInAdmin } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { freshPage, plainProduct } from './helpers.ts';

test('admin filters orders by username and paid, and opens one', async ({ page, browser, request }) => {
  // a guest of its own (a unique username) places two orders and pays the first
  const guestPage = await freshPage(browser);
  const guest = (await startGuest(guestPage)) as { _id: string; username?: string };
  expect(guest.username).toMatch(/^guest_/);
  const product = await plainProduct(request, 6);
  const email = uniqueEmail('orderlist');
  const paid = await guestOrderViaApi(guestPage, product._id, email);
  const unpaid = await guestOrderViaApi(guestPage, product._id, email);
  const pay = await guestPage.request.put(`/api/orders/${paid._id}/pay`, { data: {} });
  expect(pay.ok()).toBe(true);
  await guestPage.context().close();

  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/');
  await page.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('link', { name: 'Orders' }).click();
  await expect(page).toHaveURL('/admin/orderlist');
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  const rows = page.getByTestId('order-row');
  const row = (id: string) => page.locator(`[data-testid="order-row"][data-id="${id}"]`);
  const filters = page.getByRole('search', { name: 'Filter orders' });

  // by username (a prefix, any case): exactly this guest's two orders, newest first
  await filters.getByLabel('Username').fill(guest.username!.toUpperCase());
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-id', unpaid._id);
  await expect(rows.nth(1)).toHaveAttribute('data-id', paid._id);
  await expect(page.getByTestId('showing')).toHaveText('Showing 2 of 2');
  // a guest is shown by the name and e-mail it gave, not by its generated username
  await expect(row(paid._id).locator('td:nth-child(3)')).toContainText(email);
  await expect(row(paid._id).locator('td:nth-child(3)')).not.toContainText(guest.username!);
  await expect(row(paid._id)).toContainText(`$${paid.totalPrice.toFixed(2)}`);

  // paid yes: the paid one, with its payment date; paid no: the other, with a ✗ read as 'No'
  const paidCell = (id: string) => row(id).locator('td:nth-child(7)');
  await filters.getByLabel('Paid').selectOption({ label: 'Yes' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-id', paid._id);
  await expect(paidCell(paid._id)).toHaveText(/\d/);
  await expect(paidCell(paid._id)).not.toContainText('✗');
  await filters.getByLabel('Paid').selectOption({ label: 'No' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-id', unpaid._id);
  await expect(paidCell(unpaid._id)).toHaveText('✗No');
  await expect(row(unpaid._id).locator('td:nth-child(8)')).toHaveText('✗No');

  // shipped yes: none of this guest's orders; back to all
  await filters.getByLabel('Paid').selectOption({ label: 'All' });
  await filters.getByLabel('Shipped').selectOption({ label: 'Yes' });
  await expect(page.getByText('No orders found')).toBeVisible();
  await filters.getByLabel('Shipped').selectOption({ label: 'All' });
  await expect(rows).toHaveCount(2);

  // the order id filter narrows to one; Details opens it
  await filters.getByLabel('Order ID').fill(paid._id);
  await expect(rows).toHaveCount(1);
  await row(paid._id)
    .getByRole('link', { name: /^Details/ })
    .click();
  await expect(page).toHaveURL(`/order/${paid._id}`);
  await expect(page.getByText(paid._id).first()).toBeVisible();

  // on a phone the table scrolls inside its box, never the page
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/admin/orderlist');
  await filters.getByLabel('Username').fill(guest.username!);
  await expect(rows).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});

test('a visitor or a guest is sent away from the admin lists', async ({ page }) => {
  // signed out: to sign-in, which comes back to the admin page afterwards
  for (const path of ['/admin/productlist', '/admin/productlist/2', '/admin/orderlist']) {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`);
  }
  // a guest outside the checkout pages leaves its guest session and signs in too
  await startGuest(page);
  for (const path of ['/admin/productlist', '/admin/orderlist']) {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(path)}`);
  }
});

/**
 * A guest order of one `productId` and `extra` units of `extraId` (so totals differ), paid and shipped as asked,
 * through the API.
 */
async function guestOrder(
  guestPage: Page,
  adminToken: string,
  [productId, extraId]: [string, string],
  email: string,
  extra: number,
  state: 'unpaid' | 'paid' | 'shipped',
) {
  const order = await guestOrderViaApi(guestPage, productId, email, extra ? [{ product: extraId, qty: extra }] : []);
  if (state === 'unpaid') return order;
  expect((await guestPage.request.put(`/api/orders/${order._id}/pay`, { data: {} })).ok()).toBe(true);
  if (state === 'paid') return order;
  const ship = await guestPage.request.put(`/api/orders/${order._id}/ship`, {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { trackingNumbers: [{ number: `1Z${Date.now()}${extra}`, trackingItem: [] }] },
  });
  expect(ship.ok(), await ship.text()).toBe(true);
  return order;
}

test('admin sorts orders by total and status (kept in the address) and marks shipped ones delivered in bulk', async ({
  page,
  browser,
  request,
}) => {
  const adminToken = await signInAdmin(page);
  const guestPage = await freshPage(browser);
  const guest = (await startGuest(guestPage)) as { _id: string; username?: string };
  const products: [string, string] = [(await plainProduct(request, 7))._id, (await plainProduct(request, 8))._id];
  const email = uniqueEmail('bulk');
  // placed in this order: small shipped, big unpaid, middle shipped
  const small = await guestOrder(guestPage, adminToken, products, email, 0, 'shipped');
  const big = await guestOrder(guestPage, adminToken, products, email, 2, 'unpaid');
  const middle = await guestOrder(guestPage, adminToken, products, email, 1, 'shipped');
  await guestPage.context().close();

  await page.goto('/admin/orderlist');
  const filters = page.getByRole('search', { name: 'Filter orders' });
  await filters.getByLabel('Username').fill(guest.username!);
  const rows = page.getByTestId('order-row');
  const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
  await expect.poll(ids).toEqual([middle._id, big._id, small._id]);
  // the filter is in the address
  await expect(page).toHaveURL(new RegExp(`username=${guest.username}`));

  // TOTAL: largest first, then smallest first; the sort is in the address and survives a reload
  const totalHeader = page.getByRole('columnheader', { name: /TOTAL/ });
  await totalHeader.getByRole('button').click();
  await expect(totalHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(ids).toEqual([big._id, middle._id, small._id]);
  await totalHeader.getByRole('button').click();
  await expect(totalHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(ids).toEqual([small._id, middle._id, big._id]);
  await expect(page).toHaveURL(/sortBy=total&order=asc/);
  await page.reload();
  await expect(page.getByRole('search', { name: 'Filter orders' }).getByLabel('Username')).toHaveValue(guest.username!);
  await expect.poll(ids).toEqual([small._id, middle._id, big._id]);

  // STATUS: unpaid first, then the shipped ones (newest first)
  await page
    .getByRole('columnheader', { name: /STATUS/ })
    .getByRole('button')
    .click();
  await expect.poll(ids).toEqual([big._id, middle._id, small._id]);
  await expect(page).toHaveURL(/sortBy=status&order=asc/);

  // all three selected: the unpaid one refuses the lot, and the dialog says which and why
  await page.getByLabel('Select every order on this page').check();
  await expect(page.getByTestId('selected-count')).toHaveText('3 orders selected');
  await page.getByRole('button', { name: 'Mark delivered' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark 3 orders delivered?' });
  await expect(dialog.getByTestId('confirm-orders').getByRole('listitem')).toHaveCount(3);
  await dialog.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(dialog.getByRole('alert')).toContainText(
    'Only shipped orders can be marked delivered; nothing was changed.',
  );
  await expect(dialog.getByRole('alert')).toContainText(`#${big.orderNumber} (not shipped yet)`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows.getByTestId('order-status')).toHaveText(['Unpaid', 'Shipped', 'Shipped']);

  // the two shipped ones: both delivered, with a toast
  await page.getByLabel(`Select order #${big.orderNumber}`).uncheck();
  await page.getByRole('button', { name: 'Mark delivered' }).click();
  const two = page.getByRole('dialog', { name: 'Mark 2 orders delivered?' });
  await expect(two).toContainText(`#${middle.orderNumber}`);
  await expect(two).toContainText(`#${small.orderNumber}`);
  await two.getByRole('button', { name: 'Mark delivered' }).click();
  await expect(two).toBeHidden();
  await expect(page.locator('.toast').filter({ hasText: '2 orders marked delivered.' })).toBeVisible();
  await expect(rows.getByTestId('order-status')).toHaveText(['Unpaid', 'Delivered', 'Delivered']);
  await expect(page.getByTestId('selected-count')).toHaveText('Select orders to act on several at once');
});

test('at 375 px the admin order list shows cards (a cancelled, a refunded one), filters by cancelled, and nothing scrolls sideways', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const product = await plainProduct(request, 6);
  const shopper = await freshPage(browser);
  await startGuest(shopper);
  const email = uniqueEmail('list375');
  const cancelled = await guestOrderViaApi(shopper, product._id, email);
  expect((await shopper.request.put(`/api/orders/${cancelled._id}/cancel`)).ok()).toBe(true);
  const refunded = await guestOrderViaApi(shopper, product._id, email);
  const started = await shopper.request.post(`/api/orders/${refunded._id}/paypal`);
  const { id } = (await started.json()) as { id: string };
  expect(
    (await shopper.request.post(`/api/orders/${refunded._id}/paypal/capture`, { data: { paypalOrderId: id } })).ok(),
  ).toBe(true);
  await shopper.context().close();

  const page = await freshPage(browser, { width: 375, height: 740 });
  const token = await signInAdmin(page);
  const half = Math.round(refunded.totalPrice * 50) / 100;
  const refund = await page.request.post(`/api/orders/${refunded._id}/refunds`, {
    headers: { authorization: `Bearer ${token}` },
    data: { amount: half, reason: 'Half' },
  });
  expect(refund.ok()).toBe(true);

  await page.goto('/admin/orderlist');
  const card = (orderId: string) => page.locator(`[data-testid="order-card"][data-id="${orderId}"]`);
  await expect(card(refunded._id)).toBeVisible();
  await expect(card(refunded._id)).toContainText(`Order #${refunded.orderNumber}`);
  await expect(card(refunded._id)).toContainText(`Partially refunded $${half.toFixed(2)}`);
  await expect(card(cancelled._id)).toContainText('Cancelled');
  await expect(page.getByTestId('order-row').first()).toBeHidden();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await page.goto('/admin/orderlist?cancelled=yes');
  await expect(card(cancelled._id)).toBeVisible();
  await expect(card(refunded._id)).toHaveCount(0);
  await page.goto('/admin/orderlist?refunded=yes');
  await expect(card(refunded._id)).toBeVisible();
  await expect(card(cancelled._id)).toHaveCount(0);
  await page.context().close();
});
