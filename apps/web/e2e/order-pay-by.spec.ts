import { expect, test } from '@playwright/test';
import { waitForMail } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { plainProduct } from './helpers.ts';

test('an unpaid order says how long it waits for its payment, counting down each minute; the e-mail says it too', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const product = await plainProduct(request, 5);
  const email = uniqueEmail('payby');
  await startGuest(page);
  const order = await guestOrderViaApi(page, product._id, email);
  expect(order.payBy).toBeTruthy();

  await page.clock.install();
  await page.goto(`/order/${order._id}`);
  await expect(page.getByTestId('paid-status')).toHaveText('Not Paid');
  const notice = page.getByTestId('pay-by');
  // the e2e server holds unpaid orders 60 minutes (ORDER_HOLD_MINUTES' default)
  await expect(notice).toHaveText(/^Pay within (59|60) minutes or the items go back on sale$/);
  const before = Number(/(\d+) minutes/.exec((await notice.textContent()) ?? '')?.[1]);
  await page.clock.fastForward('05:00');
  // (a minute may also pass on its own meanwhile)
  await expect(notice).toHaveText(
    new RegExp(`^Pay within (${before - 5}|${before - 6}) minutes or the items go back on sale$`),
  );

  const mail = await waitForMail(email, new RegExp(`Order #${order.orderNumber} received`));
  expect(mail.text).toContain(`/order/${order._id}`);
  expect(mail.text).toContain('Please pay within 60 minutes, or the items go back on sale.');

  // paid: no deadline any more
  await page.getByRole('button', { name: 'Test mode: pay without PayPal' }).click();
  await expect(page.getByTestId('paid-status')).toContainText('Paid on');
  await expect(notice).toHaveCount(0);
});
