import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Download, type Page } from '@playwright/test';
import { PRODUCT_CSV_COLUMNS, type Product } from '@store/shared';
import { signInAdmin } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { formatMoney, freshPage, plainProduct, seriousViolations } from './helpers.ts';

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The stored product, as an admin reads it. */
async function stored(request: APIRequestContext, token: string, slug: string): Promise<Product> {
  const res = await request.get(`/api/products/${slug}`, { headers: bearer(token) });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Product;
}

/** One CSV cell of a one-line row: quoted (with "" inside) or bare. */
const CELL = '(?:"(?:[^"]|"")*"|[^,"\\r\\n]*)';
const PRICE = PRODUCT_CSV_COLUMNS.indexOf('price');
const HEADER = PRODUCT_CSV_COLUMNS.join(',');

/** A row of these cells, the others empty (a new slug creates a product). */
const row = (values: Partial<Record<(typeof PRODUCT_CSV_COLUMNS)[number], string>>) =>
  PRODUCT_CSV_COLUMNS.map((c) => values[c] ?? '').join(',');

/** The cells of a row that holds no line break (the rows of this test's own products). */
function cells(line: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`(${CELL})(,|$)`, 'y');
  for (let m = re.exec(line); m; m = re.exec(line)) {
    const raw = m[1]!;
    out.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (m[2] === '') break;
  }
  return out;
}

/** The row with another price cell, the rest as the server wrote it. */
const withPrice = (line: string, price: string) =>
  line.replace(new RegExp(`^((?:${CELL},){${PRICE}})${CELL}(?=,|$)`), `$1${price}`);

/** Clicks `button` and answers the file it downloads: its name and its text. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button, exact: true }).click(),
  ]);
  return { name: (file as Download).suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

/** The lines of a CSV file, without its byte-order mark and its last line break. */
const lines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .replace(/\r?\n$/, '')
    .split(/\r?\n/);

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Import products' });
/** The footer's Close (the header has its own ×, also named Close). */
const closeButton = (page: Page) => dialog(page).locator('.modal-footer').getByRole('button', { name: 'Close' });

/** Opens Import CSV and sends `text` as a file. */
async function importFile(page: Page, text: string) {
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await expect(dialog(page).getByLabel('CSV file')).toBeFocused();
  await dialog(page)
    .getByLabel('CSV file')
    .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await dialog(page).getByRole('button', { name: 'Import', exact: true }).click();
}

test('admin imports new products, exports them, changes a price in the file and imports it; a bad row imports nothing', async ({
  page,
  request,
}) => {
  const token = await signInAdmin(page);
  const t = tag();
  const brand = `Csv${t}`;
  const [mug, cap] = ['Mug', 'Cap'].map((kind) => ({
    slug: `csv-${t}-${kind.toLowerCase()}`,
    name: `Csv ${t} ${kind}`,
  }));
  await page.goto('/admin/productlist');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();

  // Import: rows of new slugs create this test's products
  const newRows = [mug!, cap!].map((p, i) => row({ ...p, brand, price: String(12.5 + i), countInStock: '4' }));
  await importFile(page, [HEADER, ...newRows, ''].join('\n'));
  await expect(dialog(page).getByTestId('csv-import-result')).toHaveText('2 products created, 0 updated.');
  await closeButton(page).click();
  await expect(dialog(page)).toBeHidden();
  const created = await stored(request, token, mug!.slug);
  expect(created).toMatchObject({ name: mug!.name, brand, price: 12.5, countInStock: 4 });

  // Export: the server's file, with the columns of an import and this test's products
  const exported = await download(page, 'Export CSV');
  expect(exported.name).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = lines(exported.text);
  expect(header).toBe(HEADER);
  const rowOf = (slug: string) => {
    const line = rows.find((l) => cells(l)[1] === slug);
    expect(line, `the export has a row for ${slug}`).toBeTruthy();
    return line!;
  };
  const mugRow = rowOf(mug!.slug);
  expect(cells(mugRow)).toHaveLength(PRODUCT_CSV_COLUMNS.length);
  expect(cells(mugRow).slice(0, PRICE + 1)).toEqual([created._id, mug!.slug, mug!.name, brand, '', '12.5']);

  // only this test's rows go back in: the rest of the catalogue belongs to the tests running beside it
  const eol = exported.text.includes('\r\n') ? '\r\n' : '\n';
  const file = (...body: string[]) => [header, ...body].join(eol) + eol;

  // while the request is in flight the bar shows the upload, then the server's phase (a small file passes
  // them too fast to see, so the server's progress is answered here once)
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const isImport = (url: URL) => url.pathname === '/api/products/import';
  const isJob = (url: URL) => url.pathname.startsWith('/api/products/import/jobs/');
  await page.route(isImport, async (route) => {
    await held;
    await route.continue();
  });
  await page.route(isJob, (route) => route.fulfill({ json: { phase: 'checking', done: 3000, total: 10000 } }));
  await importFile(page, file(withPrice(mugRow, '19.99')));
  const bar = dialog(page).getByRole('progressbar');
  await expect(bar).toBeVisible();
  await expect(dialog(page).getByTestId('csv-import-progress')).toContainText('Checking rows 3,000 of 10,000');
  await expect(bar).toHaveAttribute('aria-valuenow', '30');
  await expect(dialog(page).getByRole('button', { name: 'Close' })).toHaveCount(0);
  await page.unroute(isJob);
  release();

  await expect(dialog(page).getByTestId('csv-import-result')).toHaveText('0 products created, 1 updated.');
  await expect(dialog(page).getByRole('status')).toHaveText('Import done: 0 products created, 1 updated.');
  await page.unroute(isImport);
  expect((await stored(request, token, mug!.slug)).price).toBe(19.99);

  // the list was refreshed behind the dialog
  await closeButton(page).click();
  await expect(dialog(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Import CSV' })).toBeFocused();
  await page.getByRole('search', { name: 'Filter products' }).getByLabel('Brand').fill(brand);
  await expect(page.getByTestId('product-row').filter({ hasText: mug!.name })).toContainText('$19.99');

  // the store's product page shows the new price
  const shopper = await freshPage(page.context().browser()!);
  await shopper.goto(`/product/${mug!.slug}`);
  await expect(shopper.locator('#product-price')).toContainText(formatMoney(19.99));
  await shopper.context().close();

  // a file with one bad row: the rows to fix, and nothing written, not even the good row
  await importFile(page, file(withPrice(mugRow, '5.55'), withPrice(rowOf(cap!.slug), 'twelve')));
  const errors = dialog(page).getByTestId('csv-import-errors');
  await expect(dialog(page).getByRole('heading', { name: '1 row is not valid: nothing was imported' })).toBeVisible();
  await expect(errors.getByRole('columnheader')).toHaveText(['Row', 'Problem']);
  await expect(errors.locator('tbody tr').first().locator('td').first()).toHaveText('3');
  await expect(dialog(page).getByRole('button', { name: 'Choose another file' })).toBeFocused();
  expect((await stored(request, token, mug!.slug)).price).toBe(19.99);
  expect((await stored(request, token, cap!.slug)).price).toBe(13.5);

  // another file can be chosen from there
  await dialog(page).getByRole('button', { name: 'Choose another file' }).click();
  await expect(dialog(page).getByLabel('CSV file')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
});

test('the import dialog refuses a file over 10 MB before sending it', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin/productlist');
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await dialog(page)
    .getByLabel('CSV file')
    .setInputFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 'a') });
  const problem = 'The file is 10.1 MB: at most 10 MB can be imported.';
  await expect(dialog(page).locator('#csv-import-problem')).toHaveText(problem);
  await expect(dialog(page).getByRole('status')).toHaveText(problem);
  await expect(dialog(page).getByLabel('CSV file')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog(page).getByLabel('CSV file')).toHaveAccessibleDescription(new RegExp(`${problem}$`));
  await expect(dialog(page).getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the import dialog works by keyboard on a 375 px phone, without serious axe violations (${theme})`, async ({
    browser,
  }) => {
    const page = await freshPage(browser, { theme, width: 375, height: 740 });
    await signInAdmin(page);
    await page.goto('/admin/productlist');
    await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(await fits()).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Import CSV' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog(page).getByLabel('CSV file')).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);

    // a file the server refuses row by row: the table of problems scrolls within the dialog
    const bad = [HEADER, row({ name: `Csv bad ${tag()}`, price: 'not a price', countInStock: '-1' })].join('\n');
    await dialog(page)
      .getByLabel('CSV file')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.keyboard.press('Tab');
    await expect(closeButton(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog(page).getByRole('button', { name: 'Import', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog(page).getByRole('heading', { name: /^1 row is not valid/ })).toBeVisible();
    await expect(dialog(page).getByRole('region', { name: /^1 row is not valid/ })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await fits()).toBeLessThanOrEqual(0);
    await page.context().close();
  });
}

test('admin exports the orders the list filters select', async ({ page, browser, request }) => {
  const guestPage = await freshPage(browser);
  await startGuest(guestPage);
  const email = uniqueEmail('csvexport');
  const order = await guestOrderViaApi(guestPage, (await plainProduct(request, 7))._id, email);
  await guestPage.context().close();

  await signInAdmin(page);
  await page.goto('/admin/orderlist');
  await page.getByRole('search', { name: 'Filter orders' }).getByLabel('Order ID').fill(order._id);
  await expect(page.getByTestId('order-row')).toHaveCount(1);

  // the server's file, named by it, holding that order alone
  const exported = await download(page, 'Export CSV');
  expect(exported.name).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = lines(exported.text);
  expect(header!.split(',')).toEqual(expect.arrayContaining(['_id', 'email', 'totalPrice']));
  expect(rows).toHaveLength(1);
  expect(cells(rows[0]!).slice(0, 2)).toEqual([String(order.orderNumber), order._id]);
  expect(rows[0]).toContain(email);
});
