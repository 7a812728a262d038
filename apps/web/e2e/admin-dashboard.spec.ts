import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import type { Order, Stats } from '@store/shared';
import { signInAdmin } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { formatMoney, freshPage, plainProduct, seriousViolations } from './helpers.ts';

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
/** The last `days` UTC days up to today, as the dashboard's presets count them. */
const lastDays = (days: number) => ({
  from: utcDay(new Date(Date.now() - (days - 1) * DAY_MS)),
  to: utcDay(new Date()),
});

const isStats = (res: Response) => res.url().includes('/api/admin/stats') && res.request().method() === 'GET';

async function statsFor(request: APIRequestContext, token: string, query: string): Promise<Stats> {
  const res = await request.get(`/api/admin/stats?${query}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as Stats;
}

const card = (page: Page, key: string) => page.getByTestId(`card-${key}`);
/** Picks a range button (a radio drawn as a button: its label takes the click). */
const pick = (page: Page, name: string) => page.locator('label.btn', { hasText: name }).click();
const longDay = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
const dayRows = (page: Page) => page.getByTestId('day-row');

/** The four cards show these figures. */
async function expectCards(page: Page, s: Stats) {
  await expect(card(page, 'revenue').getByTestId('card-value')).toHaveText(formatMoney(s.revenue));
  await expect(card(page, 'orders').getByTestId('card-value')).toHaveText(s.orders.toLocaleString('en-US'));
  await expect(card(page, 'average').getByTestId('card-value')).toHaveText(formatMoney(s.averageOrderValue));
  await expect(card(page, 'toShip').getByTestId('card-value')).toHaveText(s.toShip.toLocaleString('en-US'));
}

/** Guest orders of today: `paid` of them paid in test mode, one left unpaid. */
async function seedOrders(page: Page, productId: string, paid: number): Promise<Order[]> {
  await startGuest(page);
  const email = uniqueEmail('dash');
  const orders: Order[] = [];
  for (let i = 0; i <= paid; i += 1) orders.push(await guestOrderViaApi(page, productId, email));
  for (const o of orders.slice(0, paid)) {
    const pay = await page.request.put(`/api/orders/${o._id}/pay`, { data: {} });
    expect(pay.ok(), await pay.text()).toBe(true);
  }
  return orders;
}

test('the admin reads the dashboard: figures, chart and its table, ranges, low stock, and the order list', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const product = await plainProduct(request, 2);
  const shopper = await freshPage(browser);
  const [paidOrder] = await seedOrders(shopper, product._id, 2);
  await shopper.context().close();

  const token = await signInAdmin(page);

  // the first entry of the Admin menu; it opens on the last 30 days
  await page.getByRole('button', { name: 'Admin' }).click();
  const menu = page.locator('#admin-menu + .dropdown-menu');
  await expect(menu.getByRole('link').first()).toHaveText('Dashboard');
  const first = page.waitForResponse((res) => isStats(res) && res.ok());
  await menu.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const shown = (await (await first).json()) as Stats;
  expect({ from: shown.from, to: shown.to }).toEqual(lastDays(30));
  await expect(page.getByRole('radio', { name: 'Last 30 days' })).toBeChecked();
  await expect(page.getByTestId('dash-range')).toContainText('Days in UTC');

  // the cards show what the API answers for the same range (other tests may add orders meanwhile)
  await expectCards(page, shown);
  expect(shown.paidOrders).toBeGreaterThanOrEqual(2);
  expect(shown.revenue).toBeGreaterThanOrEqual(2 * paidOrder!.totalPrice - 0.001);
  expect(shown.toShip).toBeGreaterThanOrEqual(2);
  await expect(async () => {
    const again = await statsFor(request, token, `from=${shown.from}&to=${shown.to}`);
    await page.reload();
    await expectCards(page, again);
  }).toPass({ timeout: 30_000 });

  // the chart is drawn on a canvas hidden from screen readers, summed up in text instead
  const chart = page.getByRole('img', { name: /^Revenue and orders per day/ });
  await expect(chart).toHaveAttribute('aria-label', /revenue from \d+ paid orders?, \d+ orders? placed/);
  const canvas = page.getByTestId('daily-chart').locator('canvas');
  await expect(canvas).toBeVisible();
  await expect(page.getByTestId('daily-chart')).toHaveAttribute('aria-hidden', 'true');
  const inked = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n += 1;
      return n;
    });
  await expect.poll(inked).toBeGreaterThan(500);

  // the table alternative: one row per day, on screen once asked for
  const table = page.getByRole('table', { name: /^Revenue and orders per day/ });
  await expect(dayRows(page)).toHaveCount(30);
  const tableBox = page.locator('#dash-days');
  await expect(tableBox).toHaveClass(/visually-hidden/);
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(page.getByRole('button', { name: 'Show as table' })).toHaveAttribute('aria-pressed', 'true');
  await expect(tableBox).not.toHaveClass(/visually-hidden/);
  expect((await tableBox.boundingBox())!.width).toBeGreaterThan(300);
  await expect(table.getByRole('columnheader')).toHaveText(['Day', 'Orders', 'Revenue']);

  // the theme switch redraws the chart in the other colours
  const before = await canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
  await page.getByRole('switch').click();
  await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL())).not.toBe(before);
  await page.getByRole('switch').click();

  // Last 7 days, then Last 90: the address and the figures follow
  const seven = lastDays(7);
  await pick(page, 'Last 7 days');
  await expect(page).toHaveURL(`/admin/dashboard?from=${seven.from}&to=${seven.to}`);
  await expect(dayRows(page)).toHaveCount(7);
  await expectCards(page, await statsFor(request, token, `from=${seven.from}&to=${seven.to}`));
  const ninety = lastDays(90);
  await pick(page, 'Last 90 days');
  await expect(page).toHaveURL(`/admin/dashboard?from=${ninety.from}&to=${ninety.to}`);
  await expect(dayRows(page)).toHaveCount(90);
  await expect(page.getByTestId('dash-range')).toContainText(`${longDay(ninety.from)} – ${longDay(ninety.to)}`);
  // arrow keys move along the radio group
  await page.getByRole('radio', { name: 'Last 90 days' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('radio', { name: 'Last 30 days' })).toBeChecked();
  await expect(dayRows(page)).toHaveCount(30);
  // a reload keeps the range
  await page.reload();
  await expect(dayRows(page)).toHaveCount(30);
  await expect(page.getByRole('radio', { name: 'Last 30 days' })).toBeChecked();

  // a custom range is checked before it applies
  await pick(page, 'Custom');
  const custom = page.getByRole('form', { name: 'Custom range' });
  const from = custom.getByLabel('From', { exact: true });
  const to = custom.getByLabel('To', { exact: true });
  const unchanged = page.url();
  await to.fill('2025-03-10');
  await from.fill('2025-03-11');
  await expect(custom.getByText('From must be on or before To')).toBeVisible();
  await expect(from).toHaveAttribute('aria-invalid', 'true');
  await from.fill('2024-03-09');
  await expect(custom.getByText('The range can be at most 366 days')).toBeVisible();
  await custom.getByRole('button', { name: 'Apply' }).click();
  await expect(to).toBeFocused();
  await expect(page).toHaveURL(unchanged);
  await from.fill('2025-03-01');
  await expect(custom.getByText('The range can be at most 366 days')).toHaveCount(0);
  await custom.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL('/admin/dashboard?from=2025-03-01&to=2025-03-10');
  await expect(dayRows(page)).toHaveCount(10);
  await expect(page.getByRole('radio', { name: 'Custom' })).toBeChecked();
  await expectCards(page, await statsFor(request, token, 'from=2025-03-01&to=2025-03-10'));

  // the low-stock threshold changes the list and goes into the address
  await pick(page, 'Last 7 days');
  await expect(dayRows(page)).toHaveCount(7);
  const threshold = page.getByLabel('Stock at or below');
  const lowRows = page.getByTestId('low-stock-row');
  await threshold.fill('1000000');
  await expect(page).toHaveURL(/lowStock=1000000/);
  const all = await statsFor(request, token, `from=${seven.from}&to=${seven.to}&lowStock=1000000`);
  expect(all.lowStock.length).toBeGreaterThan(0);
  await expect(lowRows).toHaveCount(all.lowStock.length);
  const firstLow = all.lowStock[0]!;
  await expect(lowRows.first().getByRole('link', { name: /^Edit / })).toHaveAttribute(
    'href',
    `/admin/product/${firstLow._id}/edit`,
  );
  await threshold.fill('0');
  await expect(page).toHaveURL(/lowStock=0(&|$)/);
  const none = await statsFor(request, token, `from=${seven.from}&to=${seven.to}&lowStock=0`);
  expect(none.lowStock.length).toBeLessThan(all.lowStock.length);
  if (none.lowStock.length === 0) await expect(page.getByText('No products with 0 or fewer in stock.')).toBeVisible();
  else await expect(lowRows).toHaveCount(none.lowStock.length);
  await threshold.fill('-3');
  await expect(page.getByText('Enter a whole number from 0 to 1,000,000')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Stock at or below')).toHaveValue('0');

  // a best seller links to its product page
  await expect(page.getByTestId('top-products').getByRole('link').first()).toHaveAttribute('href', /^\/product\/\w+$/);

  // a card opens the order list, filtered to what it counts
  await card(page, 'revenue').click();
  await expect(page).toHaveURL(`/admin/orderlist?paid=yes&dateFrom=${seven.from}&dateTo=${seven.to}`);
  const filters = page.getByRole('search', { name: 'Filter orders' });
  await expect(filters.getByLabel('Paid')).toHaveValue('yes');
  await expect(filters.getByLabel('Date From')).toHaveValue(seven.from);
  await expect(filters.getByLabel('Date To')).toHaveValue(seven.to);
  await expect(page.locator(`[data-testid="order-row"][data-id="${paidOrder!._id}"]`)).toBeVisible();
  await page.goBack();
  await card(page, 'toShip').click();
  await expect(page).toHaveURL('/admin/orderlist?paid=yes&shipped=no');
  await expect(filters.getByLabel('Shipped')).toHaveValue('no');
  await expect(page.getByTestId('order-row').first()).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the dashboard on a 375 px phone, ${theme}: fits the screen, no serious axe violations`, async ({ browser }) => {
    test.setTimeout(90_000);
    const page = await freshPage(browser, { theme, width: 375, height: 740 });
    await signInAdmin(page);
    await page.goto('/admin/dashboard');
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
    await expect(page.getByTestId('card-revenue').getByTestId('card-value')).toBeVisible();
    const canvas = page.getByTestId('daily-chart').locator('canvas');
    await expect(canvas).toBeVisible();
    // the chart takes the width it is given: inside the screen, and the page does not scroll sideways
    const box = (await canvas.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);

    // with the table shown and the custom range open too
    await page.getByRole('button', { name: 'Show as table' }).click();
    await pick(page, 'Custom');
    await expect(page.getByRole('form', { name: 'Custom range' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);

    // turning the phone: the chart follows its box
    await page.setViewportSize({ width: 740, height: 375 });
    await expect.poll(async () => (await canvas.boundingBox())!.width).toBeGreaterThan(box.width + 100);
    await page.context().close();
  });
}
