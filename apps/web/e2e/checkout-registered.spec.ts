import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { fillShipping } from './checkout.ts';
import { cartBadge, formatMoney, plainProduct } from './helpers.ts';

test('a registered user checks out and pays in test mode; the admin ships and delivers', async ({ page, request }) => {
  test.setTimeout(90_000);
  const product = await plainProduct(request, 2);
  await page.goto(`/cart/${product._id}?qty=2`);
  await expect(page.locator('.cart-line')).toHaveCount(1);

  // signed out: Sign In leads back to /shipping
  await page.getByRole('link', { name: 'Sign In', exact: true }).last().click();
  await expect(page).toHaveURL('/login?redirect=/shipping');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/shipping');

  // the step bar, and the shared rules in the form
  const steps = page.getByRole('navigation', { name: 'Checkout steps' });
  await expect(steps.getByRole('listitem')).toHaveCount(4);
  await expect(steps.locator('[aria-current="step"]')).toHaveText('2. Shipping');
  await expect(page.getByLabel('Email')).toHaveValue(ADMIN.email);
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('Postal Code').fill('123');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('US ZIP: 12345 or 12345-6789')).toBeVisible();
  await expect(page.getByText('First name is required')).toBeVisible();

  await fillShipping(page);
  await expect(page.getByLabel('PayPal or Credit Card')).toBeChecked();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');

  const items = product.price * 2;
  const tax = Math.round(items * 15) / 100;
  await expect(page.getByTestId('order-item-total')).toHaveText(
    `2 x ${formatMoney(product.price)} = ${formatMoney(items)}`,
  );
  await expect(page.getByTestId('summary-items')).toHaveText(formatMoney(items));
  await expect(page.getByTestId('summary-shipping')).toHaveText('FREE');
  await expect(page.getByTestId('summary-tax')).toHaveText(formatMoney(tax));
  await expect(page.getByTestId('summary-total')).toHaveText(formatMoney(items + tax));
  await expect(page.getByTestId('placeorder-address')).toContainText('Washington, DC 20500');

  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await expect(cartBadge(page)).toHaveCount(0);
  await expect(page.getByTestId('paid-status')).toHaveText('Not Paid');
  await expect(page.getByText('Not Shipped')).toBeVisible();
  await expect(page.getByText('Not Delivered')).toBeVisible();
  await expect(page.getByTestId('summary-total')).toHaveText(formatMoney(items + tax));
  // no Mark As Shipped before payment
  await expect(page.getByRole('button', { name: 'Mark As Shipped' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Test mode: pay without PayPal' }).click();
  await expect(page.getByTestId('paid-status')).toContainText('Paid on');
  await expect(page.getByText('Test-mode payment: no money moved.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Test mode: pay without PayPal' })).toHaveCount(0);

  // the admin's actions follow the order's state: Mark As Delivered only once shipped
  await expect(page.getByRole('button', { name: 'Mark As Delivered' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Mark As Shipped' }).click();
  const ship = page.getByRole('dialog', { name: 'Upload Tracking Numbers' });
  await ship.getByLabel('Tracking number 1').fill('1Z999AA10123456784');
  await ship.getByLabel(`${product.name} x 2`).check();
  await ship.getByRole('button', { name: 'Mark As Shipped' }).click();
  await expect(ship).toBeHidden();
  await expect(page.getByText(/^Shipped on/)).toBeVisible();
  await expect(page.getByTestId('tracking-numbers')).toContainText('1Z999AA10123456784');
  await page.getByRole('button', { name: 'TRACK SHIPMENT 1Z999AA10123456784' }).click();
  const history = page.getByRole('dialog', { name: 'Shipment Tracking History' });
  await expect(history).toBeVisible();
  await history.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('button', { name: 'Mark As Shipped' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Mark As Delivered' }).click();
  await expect(page.getByText(/^Delivered on/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark As Delivered' })).toHaveCount(0);
});
