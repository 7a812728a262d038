import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  COUPON_MESSAGES,
  TOAST_MS,
  discountTerms,
  priceOrder,
  type Coupon,
  type CouponFormInput,
  type Order,
} from '@store/shared';
import { signInAdmin, solveCaptcha } from './accounts.ts';
import { fillShipping, uniqueEmail } from './checkout.ts';
import { cartBadge, formatMoney, freshPage, plainProduct, seriousViolations } from './helpers.ts';

// Discount codes: the admin's list and form, and a shopper's code on /placeorder through to the order page.

/** A code no other run of these tests has made (codes are unique in the shared database). */
const uniqueCode = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();

/** The admin's bearer token, from a sign-in in a page of its own. */
async function adminToken(browser: Browser): Promise<string> {
  const page = await freshPage(browser);
  const token = await signInAdmin(page);
  await page.context().close();
  return token;
}

async function createCoupon(request: APIRequestContext, token: string, body: CouponFormInput): Promise<Coupon> {
  const res = await request.post('/api/coupons', { headers: { Authorization: `Bearer ${token}` }, data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Coupon;
}

const money = (text: string | null) => (text === 'FREE' ? 0 : Math.round(Number(text?.replace('$', '')) * 100));
const cents = (c: number) => formatMoney(c / 100);

/** A guest's way from the cart through shipping and payment to /placeorder, with `qty` of the product. */
async function guestToPlaceOrder(page: Page, productId: string, qty: number) {
  await page.goto(`/cart/${productId}?qty=${qty}`);
  await expect(page.locator('.cart-line')).toHaveCount(1);
  await solveCaptcha(page, page.locator('.cart-summary'));
  await page.getByRole('button', { name: 'Checkout As Guest' }).click();
  await expect(page).toHaveURL('/shipping');
  await fillShipping(page, uniqueEmail('coupon'));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');
  await expect(page.getByRole('button', { name: 'Place Order' })).toBeEnabled();
}

const summary = (page: Page) => ({
  items: page.getByTestId('summary-items'),
  discount: page.getByTestId('summary-discount'),
  shipping: page.getByTestId('summary-shipping'),
  tax: page.getByTestId('summary-tax'),
  total: page.getByTestId('summary-total'),
});

test('an admin creates, edits and deletes discount codes in /admin/couponlist', async ({ page, request }) => {
  test.setTimeout(90_000);
  const token = await signInAdmin(page);
  const code = uniqueCode('E2E');
  const other = await createCoupon(request, token, { code: uniqueCode('GONE'), type: 'free_shipping' });

  // the Admin menu leads there
  await page.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('link', { name: 'Discount Codes' }).click();
  await expect(page).toHaveURL('/admin/couponlist');
  await expect(page.getByRole('heading', { name: 'Discount Codes', level: 1 })).toBeVisible();
  const row = (c: string) => page.getByTestId('coupon-row').filter({ has: page.getByRole('rowheader', { name: c }) });
  // every change is confirmed by the admin lists' toast
  const toast = (text: string) => page.locator('.toast').filter({ hasText: text });
  await expect(row(other.code)).toContainText('Free shipping');

  // create: the shared rules show by the fields before anything is sent
  await page.getByRole('button', { name: 'Create Discount Code' }).click();
  const form = page.getByRole('dialog', { name: 'Create Discount Code' });
  await expect(form.getByLabel('Code')).toBeFocused();
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByLabel('Type').selectOption('percent');
  await form.getByLabel('Value').fill('150');
  await form.getByLabel('Usage limit').fill('50');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(COUPON_MESSAGES.percent)).toBeVisible();
  await expect(form.getByLabel('Value')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Value').fill('10');
  await expect(form.getByLabel('Active')).toBeChecked();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
  await expect(toast(`Discount code ${code} created.`)).toBeVisible();
  await expect(toast(`Discount code ${code} created.`)).toContainText('Discount codes');

  // listed upper-case, active and unused
  await expect(row(code)).toContainText('10%');
  await expect(row(code).getByTestId('coupon-active')).toHaveText('Yes');
  await expect(row(code).getByTestId('coupon-uses')).toHaveText('0 / 50');

  // the same code again, opened while the toast still shows: the toast hides by itself while the dialog is
  // open, and neither the dialog (what was typed, where the focus is) nor the list under it is redrawn
  const listed = await row(code).elementHandle();
  await page.getByRole('button', { name: 'Create Discount Code' }).click();
  const again = page.getByRole('dialog', { name: 'Create Discount Code' });
  await expect(toast(`Discount code ${code} created.`)).toBeVisible();
  await again.getByLabel('Code').fill(code);
  await again.getByLabel('Value').fill('5');
  await expect(toast(`Discount code ${code} created.`)).toBeHidden();
  await expect(again).toBeVisible();
  await expect(again.getByLabel('Code')).toHaveValue(code);
  await expect(again.getByLabel('Value')).toHaveValue('5');
  // the field typed in last is still the page's focused element (whether the window itself has the focus
  // depends on the other journeys running beside this one)
  expect(await again.getByLabel('Value').evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await row(code).evaluate((el, before) => el === before, listed)).toBe(true);
  // the server's refusal shows by the field
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again.getByText(COUPON_MESSAGES.codeTaken)).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();

  // edit: the form starts from the stored code; free shipping needs no value
  await row(code)
    .getByRole('button', { name: `Edit ${code}` })
    .click();
  const edit = page.getByRole('dialog', { name: 'Edit Discount Code' });
  await expect(edit.getByLabel('Code')).toHaveValue(code);
  await expect(edit.getByLabel('Value')).toHaveValue('10');
  await edit.getByLabel('Type').selectOption('fixed');
  await edit.getByLabel('Value').fill('5');
  await edit.getByLabel('Minimum items price').fill('20');
  await edit.getByLabel('Ends at').fill('2099-12-31T23:30');
  await edit.getByLabel('Active').uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(`Discount code ${code} saved and deactivated.`)).toBeVisible();
  await expect(row(code)).toContainText('$5.00');
  await expect(row(code)).toContainText('$20.00');
  await expect(row(code)).toContainText('2099');
  await expect(row(code).getByTestId('coupon-active')).toHaveText('No');
  // focus came back to the Edit button
  await expect(row(code).getByRole('button', { name: `Edit ${code}` })).toBeFocused();
  const stored = await request.get('/api/coupons', { headers: { Authorization: `Bearer ${token}` } });
  const saved = ((await stored.json()) as Coupon[]).find((c) => c.code === code)!;
  expect(saved).toMatchObject({ type: 'fixed', value: 5, minItemsPrice: 20, isActive: false, usageLimit: 50 });
  expect(new Date(saved.endsAt!).getFullYear()).toBe(2099);

  // switched on again; an edit that leaves it on or off just says saved
  await row(code)
    .getByRole('button', { name: `Edit ${code}` })
    .click();
  await edit.getByLabel('Active').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(`Discount code ${code} saved and activated.`)).toBeVisible();
  const activatedShown = Date.now();
  await expect(row(code).getByTestId('coupon-active')).toHaveText('Yes');
  await row(code)
    .getByRole('button', { name: `Edit ${code}` })
    .click();
  await edit.getByLabel('Usage limit').fill('60');
  // saved well into the time of the toast before, so that its time would run out first
  await page.waitForTimeout(Math.max(0, activatedShown + 1500 - Date.now()));
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(`Discount code ${code} saved.`)).toBeVisible();
  await expect(toast(`Discount code ${code} saved and activated.`)).toHaveCount(0);
  // a new message shows for its own time: it outlasts the time the one it replaced had left
  await page.waitForTimeout(Math.max(0, activatedShown + TOAST_MS.adminAction + 500 - Date.now()));
  await expect(toast(`Discount code ${code} saved.`)).toBeVisible();
  await expect(row(code).getByTestId('coupon-uses')).toHaveText('0 / 60');

  // delete asks first, naming the code: cancelled, nothing happens; confirmed, the code goes
  await row(other.code)
    .getByRole('button', { name: `Delete ${other.code}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Delete discount code ${other.code}?` });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row(other.code)).toHaveCount(1);
  await row(other.code)
    .getByRole('button', { name: `Delete ${other.code}` })
    .click();
  await page
    .getByRole('dialog', { name: `Delete discount code ${other.code}?` })
    .getByRole('button', { name: 'Delete code' })
    .click();
  // the toast shows when the delete is answered, before the list is read again: looked for first, as a slow
  // reading of the list could outlast the toast's time
  await expect(toast(`Discount code ${other.code} deleted.`)).toBeVisible();
  await expect(row(other.code)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Discount Codes', level: 1 })).toBeFocused();
  await expect(row(code)).toHaveCount(1);
});

test('a shopper applies a code at /placeorder, places the order, and the order page shows what was paid', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await adminToken(browser);
  const code = uniqueCode('TENOFF');
  await createCoupon(request, token, { code, type: 'percent', value: 10 });
  const product = await plainProduct(request, 8);
  await guestToPlaceOrder(page, product._id, 2);

  const s = summary(page);
  const shippingCents = money(await s.shipping.textContent());
  const lines = [{ unitPriceCents: Math.round(product.price * 100), qty: 2 }];
  const before = priceOrder(lines, shippingCents);
  const after = priceOrder(lines, shippingCents, discountTerms({ type: 'percent', value: 10 }));
  await expect(s.total).toHaveText(cents(before.totalCents));
  await expect(s.discount).toHaveCount(0);

  // typed in lower case, applied with Enter
  const field = page.getByLabel('Discount code');
  await field.fill(` ${code.toLowerCase()} `);
  await field.press('Enter');
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  await expect(s.discount).toHaveText(`-${cents(after.discountCents)}`);
  await expect(s.items).toHaveText(cents(before.itemsCents));
  await expect(s.tax).toHaveText(cents(after.taxCents));
  await expect(s.total).toHaveText(cents(after.totalCents));
  expect(after.totalCents).toBeLessThan(before.totalCents);
  await expect(page.getByTestId('coupon-applied')).toContainText(code);

  // the code stays through a reload of the page
  await page.reload();
  await expect(s.discount).toHaveText(`-${cents(after.discountCents)}`);
  await expect(s.total).toHaveText(cents(after.totalCents));

  const placed = page.waitForResponse((r) => r.url().endsWith('/api/orders') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Place Order' }).click();
  const res = await placed;
  expect(res.request().postDataJSON()).toMatchObject({ couponCode: code });
  const order = (await res.json()) as Order;
  expect(order).toMatchObject({ couponCode: code, discountPrice: after.discountCents / 100 });
  await expect(page).toHaveURL(`/order/${order._id}`);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();
  await expect(cartBadge(page)).toHaveCount(0);
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  await expect(s.discount).toHaveText(`-${cents(after.discountCents)}`);
  await expect(s.tax).toHaveText(cents(after.taxCents));
  await expect(s.total).toHaveText(cents(after.totalCents));
  // the code went with the order
  expect(await page.evaluate(() => localStorage.getItem('couponCode'))).toBeNull();

  // the admin list counts the use
  const list = await request.get('/api/coupons', { headers: { Authorization: `Bearer ${token}` } });
  expect(((await list.json()) as Coupon[]).find((c) => c.code === code)?.timesUsed).toBe(1);
});

test('a code that does not apply says why and leaves the price; removing a code restores it', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await adminToken(browser);
  const expired = uniqueCode('OLD');
  const fixed = uniqueCode('FIVE');
  const hour = 3_600_000;
  await createCoupon(request, token, {
    code: expired,
    type: 'percent',
    value: 20,
    startsAt: new Date(Date.now() - 48 * hour).toISOString(),
    endsAt: new Date(Date.now() - hour).toISOString(),
  });
  const five = await createCoupon(request, token, { code: fixed, type: 'fixed', value: 5 });
  const product = await plainProduct(request, 9);
  await guestToPlaceOrder(page, product._id, 1);

  const s = summary(page);
  const shippingCents = money(await s.shipping.textContent());
  const lines = [{ unitPriceCents: Math.round(product.price * 100), qty: 1 }];
  const before = priceOrder(lines, shippingCents);
  const withFive = priceOrder(lines, shippingCents, discountTerms({ type: 'fixed', value: 5 }));
  await expect(s.total).toHaveText(cents(before.totalCents));

  // an expired code: its reason by the field, announced; the price stays
  const field = page.getByLabel('Discount code');
  await field.fill(expired);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('coupon-error')).toHaveText(COUPON_MESSAGES.ended);
  await expect(page.locator('#coupon-feedback')).toHaveAttribute('aria-live', 'polite');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(s.discount).toHaveCount(0);
  await expect(s.total).toHaveText(cents(before.totalCents));

  // an unknown one likewise; editing the field clears the old reason
  await field.fill(`${expired}X`);
  await expect(page.getByTestId('coupon-error')).toHaveCount(0);
  await field.press('Enter');
  await expect(page.getByTestId('coupon-error')).toHaveText(COUPON_MESSAGES.unknown);
  await expect(s.total).toHaveText(cents(before.totalCents));

  // a good code takes its amount off; Remove puts the price back and the focus in the field
  await field.fill(fixed);
  await field.press('Enter');
  await expect(page.getByTestId('coupon-error')).toHaveCount(0);
  await expect(s.discount).toHaveText(`-${cents(withFive.discountCents)}`);
  await expect(s.total).toHaveText(cents(withFive.totalCents));
  await page.getByRole('button', { name: 'Remove' }).click();
  await expect(s.discount).toHaveCount(0);
  await expect(s.total).toHaveText(cents(before.totalCents));
  await expect(field).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem('couponCode'))).toBeNull();

  // a code that stops applying before the order is placed: no order, the reason by the field, the code dropped
  await field.fill(fixed);
  await field.press('Enter');
  await expect(s.total).toHaveText(cents(withFive.totalCents));
  const off = await request.put(`/api/coupons/${five._id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { isActive: false },
  });
  expect(off.status()).toBe(200);
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/orders') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Place Order' }).click();
  expect((await refused).status()).toBe(400);
  await expect(page).toHaveURL('/placeorder');
  await expect(page.getByTestId('coupon-error')).toHaveText(COUPON_MESSAGES.inactive);
  await expect(s.discount).toHaveCount(0);
  await expect(s.total).toHaveText(cents(before.totalCents));
  await expect(page.getByTestId('coupon-applied')).toHaveCount(0);
  // without the code the order goes through at the full price
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  await expect(s.discount).toHaveCount(0);
  await expect(s.total).toHaveText(cents(before.totalCents));
});

for (const theme of ['light', 'dark'] as const) {
  for (const width of [375, 1280]) {
    test(`the discount code screens are axe-clean and fit the screen (${theme}, ${width} px)`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(90_000);
      const page = await freshPage(browser, { theme, width });
      const token = await signInAdmin(page);
      const code = uniqueCode('A11Y');
      const ended = uniqueCode('ENDED');
      await createCoupon(request, token, { code, type: 'fixed', value: 2, usageLimit: 10, perCustomerLimit: 1 });
      await createCoupon(request, token, { code: ended, type: 'free_shipping', endsAt: '2020-01-01T00:00:00Z' });
      const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

      await page.goto('/admin/couponlist');
      const entry = page.getByTestId(width < 992 ? 'coupon-card' : 'coupon-row').filter({ hasText: code });
      await expect(entry).toContainText('$2.00');
      await expect(entry).toContainText('0 / 10');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fits()).toBe(true);

      await page.getByRole('button', { name: 'Create Discount Code' }).click();
      const form = page.getByRole('dialog', { name: 'Create Discount Code' });
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(form.getByText(COUPON_MESSAGES.code)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toBeHidden();

      const product = await plainProduct(request, 5);
      await page.evaluate(
        (a) => {
          localStorage.setItem('shippingAddress', JSON.stringify(a));
          localStorage.setItem('paymentMethod', JSON.stringify('PayPal'));
        },
        {
          email: 'a11y-coupon@example.test',
          shipToFirstName: 'Grace',
          shipToLastName: 'Hopper',
          address1: '1600 Pennsylvania Ave NW',
          address2: '',
          city: 'Washington',
          state: 'DC',
          postalCode: '20500',
          country: 'US',
        },
      );
      await page.goto(`/cart/${product._id}?qty=1`);
      await expect(page.locator('.cart-line')).toHaveCount(1);
      await page.goto('/placeorder');
      const field = page.getByLabel('Discount code');
      await field.fill(ended);
      await field.press('Enter');
      await expect(page.getByTestId('coupon-error')).toHaveText(COUPON_MESSAGES.ended);
      expect(await seriousViolations(page)).toEqual([]);
      await field.fill(code);
      await field.press('Enter');
      await expect(page.getByTestId('summary-discount')).toHaveText('-$2.00');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await fits()).toBe(true);
      await page.getByRole('button', { name: 'Remove' }).click();
      await expect(page.getByTestId('summary-discount')).toHaveCount(0);
      await page.context().close();
    });
  }
}
