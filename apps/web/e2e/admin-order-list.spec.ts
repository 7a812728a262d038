import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
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
  await expect(row(paid._id)).toContainText(guest.username!);
  await expect(row(paid._id)).toContainText(`$${paid.totalPrice.toFixed(2)}`);

  // paid yes: the paid one, with its payment date; paid no: the other, with a ✗ read as 'No'
  const paidCell = (id: string) => row(id).locator('td:nth-child(5)');
  await filters.getByLabel('Paid').selectOption({ label: 'Yes' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-id', paid._id);
  await expect(paidCell(paid._id)).toHaveText(/\d/);
  await expect(paidCell(paid._id)).not.toContainText('✗');
  await filters.getByLabel('Paid').selectOption({ label: 'No' });
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveAttribute('data-id', unpaid._id);
  await expect(paidCell(unpaid._id)).toHaveText('✗No');
  await expect(row(unpaid._id).locator('td:nth-child(6)')).toHaveText('✗No');

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
