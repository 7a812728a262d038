import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { readMails } from './mail-server.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { freshPage, plainProduct } from './helpers.ts';

test('the admin ships with two tracking numbers, records a movement, mails and delivers; the shopper tracks', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const first = await plainProduct(request, 6);
  const second = await plainProduct(request, 7);
  const email = uniqueEmail('track');

  // the shopper: a guest order of two products, paid in test mode
  const shopper = await freshPage(browser);
  await startGuest(shopper);
  const order = await guestOrderViaApi(shopper, first._id, email, [{ product: second._id, qty: 2 }]);
  await shopper.goto(`/order/${order._id}`);
  await shopper.getByRole('button', { name: 'Test mode: pay without PayPal' }).click();
  await expect(shopper.getByTestId('paid-status')).toContainText('Paid on');
  await expect(shopper.getByTestId('tracking-numbers')).toHaveCount(0);

  // the admin, in another browser
  const admin = await freshPage(browser);
  await admin.goto('/login');
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL('/');
  await admin.goto(`/order/${order._id}`);
  await admin.getByRole('button', { name: 'Mark As Shipped' }).click();
  const ship = admin.getByRole('dialog', { name: 'Upload Tracking Numbers' });
  await ship.getByLabel('Tracking number 1').fill('TRK-FIRST-0001');
  await ship.getByRole('group', { name: 'Tracking number 1' }).getByLabel(`${first.name} x 1`).check();
  await ship.getByRole('button', { name: 'Add tracking number' }).click();
  await ship.getByLabel('Tracking number 2').fill('TRK-SECOND-0002');
  // each item once per number: the second number's own checkbox for the second product
  await ship.getByRole('group', { name: 'Tracking number 2' }).getByLabel(`${second.name} x 2`).check();
  await ship.getByRole('button', { name: 'Mark As Shipped' }).click();
  await expect(ship).toBeHidden();
  const list = admin.getByTestId('tracking-numbers');
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText(first.name);
  await expect(list.getByRole('listitem').last()).toContainText(second.name);

  // the admin records a movement of the first parcel (the manual tracking provider)
  await admin.getByRole('button', { name: 'TRACK SHIPMENT TRK-FIRST-0001' }).click();
  const adminHistory = admin.getByRole('dialog', { name: 'Shipment Tracking History' });
  await expect(adminHistory.getByText('No movement data yet')).toBeVisible();
  await adminHistory.getByLabel('Status').fill('Departed sorting centre');
  await adminHistory.getByLabel('Location').fill('Memphis, TN');
  await adminHistory.getByRole('button', { name: 'Add Movement' }).click();
  await expect(adminHistory.getByRole('heading', { name: 'Movement', exact: true })).toBeVisible();
  await expect(adminHistory.getByTestId('movements')).toContainText('Departed sorting centre');
  await adminHistory.getByRole('button', { name: 'Close' }).last().click();

  // shipping mails the numbers once; 'Email Tracking Numbers' mails them again
  const shippedMails = () =>
    readMails().filter((m) => m.to.includes(email) && m.subject.includes(`Order #${order.orderNumber} has shipped`));
  await expect.poll(() => shippedMails().length, { timeout: 20_000 }).toBe(1);
  await admin.getByRole('button', { name: 'Email Tracking Numbers' }).click();
  await expect(admin.getByText('Email sent')).toBeVisible();
  await expect.poll(() => shippedMails().length, { timeout: 20_000 }).toBe(2);
  for (const m of shippedMails()) expect(m.text).toMatch(/TRK-FIRST-0001[\s\S]*TRK-SECOND-0002/);
  await admin.getByRole('button', { name: 'Mark As Delivered' }).click();
  await expect(admin.getByText(/^Delivered on/)).toBeVisible();

  // the shopper sees both numbers and the movement through the tracking API
  await shopper.reload();
  await expect(shopper.getByText(/^Delivered on/)).toBeVisible();
  await shopper.getByRole('button', { name: 'TRACK SHIPMENT TRK-FIRST-0001' }).click();
  const history = shopper.getByRole('dialog', { name: 'Shipment Tracking History' });
  await expect(history.getByRole('heading', { name: 'Movement', exact: true })).toBeVisible();
  await expect(history.getByTestId('movements')).toContainText('Departed sorting centre');
  await expect(history.getByTestId('movements')).toContainText('Memphis, TN');
  // shoppers cannot record movements
  await expect(history.getByRole('button', { name: 'Add Movement' })).toHaveCount(0);
  await history.getByRole('button', { name: 'Close' }).last().click();
  await shopper.getByRole('button', { name: 'TRACK SHIPMENT TRK-SECOND-0002' }).click();
  await expect(history.getByText('No movement data yet')).toBeVisible();

  await shopper.context().close();
  await admin.context().close();
});
