import { expect, test, type Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { freshPage, plainProduct } from './helpers.ts';

/**
 * PayPal's JS SDK cannot be loaded here: this stand-in answers its URL with what the SDK's Buttons do for a
 * shopper who approves at once: createOrder (our server creates the PayPal order), then onApprove with that
 * order id (our server captures it).
 */
const FAKE_SDK = `(function () {
  var ns = (document.currentScript && document.currentScript.getAttribute('data-namespace')) || 'paypal';
  window[ns] = {
    version: 'stand-in',
    Buttons: function (opts) {
      return {
        isEligible: function () { return true; },
        render: function (el) {
          var b = document.createElement('button');
          b.type = 'button';
          b.textContent = 'PayPal (stand-in)';
          b.onclick = function () {
            Promise.resolve(opts.createOrder({}, {}))
              .then(function (id) { return opts.onApprove({ orderID: id }, {}); })
              .catch(function (e) { if (opts.onError) opts.onError(e); });
          };
          el.appendChild(b);
          if (opts.onInit) opts.onInit({}, { enable: function () { return Promise.resolve(); }, disable: function () { return Promise.resolve(); } });
          return Promise.resolve();
        },
        close: function () { return Promise.resolve(); },
        updateProps: function () { return Promise.resolve(); }
      };
    }
  };
})();`;

async function paidThroughButtons(page: Page, orderId: string) {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/orders/${orderId}/`)) calls.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  await page.route('https://www.paypal.com/sdk/js**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: FAKE_SDK }),
  );
  await page.route('**/api/config/paypal', (route) =>
    route.fulfill({ json: { clientId: 'sb-test', testMode: false } }),
  );
  await page.goto(`/order/${orderId}`);
  await page.getByRole('button', { name: 'PayPal (stand-in)' }).click();
  await expect(page.getByTestId('paid-status')).toContainText('Paid on');
  expect(calls).toEqual([`POST /api/orders/${orderId}/paypal`, `POST /api/orders/${orderId}/paypal/capture`]);
}

test('the PayPal buttons pay through the server: it creates the payment for its own total and captures it', async ({
  page,
  request,
}) => {
  const product = await plainProduct(request, 3);
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, uniqueEmail('buttons'));
  await paidThroughButtons(page, order._id);
  await expect(page.getByRole('heading', { name: `Order #${order.orderNumber}` })).toBeVisible();
  await expect(page.getByText('Test-mode payment: no money moved.')).toBeVisible();
});

test('test mode pays through the same server calls', async ({ page, request }) => {
  const product = await plainProduct(request, 4);
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, uniqueEmail('testpay'));
  const started = page.waitForRequest(
    (r) => r.url().endsWith(`/api/orders/${order._id}/paypal`) && r.method() === 'POST',
  );
  await page.goto(`/order/${order._id}`);
  await page.getByRole('button', { name: 'Test mode: pay without PayPal' }).click();
  await started;
  await expect(page.getByTestId('paid-status')).toContainText('Paid on');
});

test('a shopper cancels their unpaid order after confirming, and it says so', async ({ page, request }) => {
  const product = await plainProduct(request, 5);
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, uniqueEmail('cancel'));
  await page.goto(`/order/${order._id}`);
  await page.getByRole('button', { name: 'Cancel Order' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancel order #${order.orderNumber}?` });
  await expect(dialog).toContainText('The items go back on sale');
  // the safe choice is the one focused
  await expect(dialog.getByRole('button', { name: 'Keep order' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('cancelled-status')).toContainText('Cancelled on');
  await expect(page.getByRole('button', { name: 'Test mode: pay without PayPal' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel Order' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('cancelled-status')).toBeVisible();
});

test('an admin refunds half of a paid order and reads its history', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const product = await plainProduct(request, 6);
  const shopper = await freshPage(browser);
  await startGuest(shopper);
  const order = await guestOrderViaApi(shopper, product._id, uniqueEmail('refund'));
  await paidThroughButtons(shopper, order._id);

  const admin = await freshPage(browser);
  await admin.goto('/login');
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL('/');
  await admin.goto(`/order/${order._id}`);
  await admin.getByRole('button', { name: 'Refund' }).click();
  const dialog = admin.getByRole('dialog', { name: `Refund order #${order.orderNumber}` });
  const amount = dialog.getByLabel('Amount (USD)');
  // prefilled with what is left: the whole total
  await expect(amount).toHaveValue(order.totalPrice.toFixed(2));
  const half = Math.round(order.totalPrice * 50) / 100;
  await amount.fill(half.toFixed(2));
  await dialog.getByLabel('Reason').fill('Arrived scratched');
  await dialog.getByLabel(new RegExp(`of 1 × ${product.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).fill('1');
  await dialog.getByRole('button', { name: 'Refund' }).click();
  await expect(dialog).toBeHidden();
  const state = admin.getByTestId('refund-status');
  await expect(state).toContainText('Partially refunded');
  await expect(state).toContainText(`$${half.toFixed(2)} of $${order.totalPrice.toFixed(2)}`);
  await expect(state).toContainText('Arrived scratched');
  const history = admin.getByTestId('order-history');
  await expect(history).toContainText('Placed');
  await expect(history).toContainText('Paid');
  await expect(history).toContainText('Refunded');
  await expect(history).toContainText(`$${half.toFixed(2)}: Arrived scratched`);
  await expect(history).toContainText(`Refund for order #${order.orderNumber}`);

  // the shopper sees the refund on the order page
  await shopper.reload();
  await expect(shopper.getByTestId('refund-status')).toContainText('Partially refunded');
  await expect(shopper.getByTestId('order-history')).toHaveCount(0);
});

test('the dashboard points the admin to payments PayPal has not refunded yet', async ({ page }) => {
  // (a payment for a cancelled order that PayPal refused to refund cannot happen in test mode: the count is given)
  await page.route('**/api/orders?*refundDue=yes*', (route) =>
    route.fulfill({ json: { orders: [], page: 1, pages: 1, total: 2 } }),
  );
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/');
  await page.goto('/admin/dashboard');
  const notice = page.getByTestId('refunds-due');
  await expect(notice).toContainText('2 payments arrived for cancelled orders');
  await page.unroute('**/api/orders?*refundDue=yes*');
  await notice.getByRole('link', { name: 'Show these orders' }).click();
  await expect(page).toHaveURL('/admin/orderlist?refundDue=yes');
  await expect(page.getByLabel('Payment to refund')).toHaveValue('yes');
});
