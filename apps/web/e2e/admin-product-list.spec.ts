import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AdminProductListResponse, Product, ProductUpdateInput } from '@store/shared';
import { signInAdmin } from './accounts.ts';
import { freshPage, seriousViolations } from './helpers.ts';

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Signs the admin in through the form (on `page`); answers the bearer token the page keeps. */
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A product of this test: the draft the server creates, then given these fields (which publishes it). */
async function makeProduct(request: APIRequestContext, token: string, fields: ProductUpdateInput): Promise<Product> {
  const created = await request.post('/api/products', { headers: bearer(token) });
  expect(created.status()).toBe(201);
  const { _id } = (await created.json()) as Product;
  const res = await request.put(`/api/products/${_id}`, { headers: bearer(token), data: fields });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Product;
}

/** The names the admin list should show for these filters: what the admin list's API answers (by name, A to Z). */
async function expectedNames(request: APIRequestContext, token: string, filters: Record<string, string>) {
  const query = new URLSearchParams({ sortBy: 'name', order: 'asc', ...filters });
  const res = await request.get(`/api/admin/products?${query}`, { headers: bearer(token) });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as AdminProductListResponse).products.map((p) => p.name);
}

const rows = (page: Page) => page.getByTestId('product-row');
const names = (page: Page) => rows(page).getByTestId('product-name');
const filters = (page: Page) => page.getByRole('search', { name: 'Filter products' });

test('admin sorts by name, filters by name, brand and price, follows a supplier link and deletes one', async ({
  page,
  request,
}) => {
  const token = await signInAdmin(page);
  const t = tag();
  const brand = `Zq${t}`;
  const link = `https://supplier.example.test/item/${t}`;
  const [alpha, bravo, charlie] = await Promise.all(
    [11, 22, 33].map((price, i) =>
      makeProduct(request, token, {
        name: `Listing ${t} ${['Alpha', 'Bravo', 'Charlie'][i]}`,
        brand,
        price,
        countInStock: 5,
        purchaseLink: `${link}/${i}`,
      }),
    ),
  );

  await page.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('link', { name: 'Products' }).click();
  await expect(page).toHaveURL('/admin/productlist');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();

  // sorted by name on the server: the heading says so, and the address keeps it
  await page.getByRole('button', { name: /^NAME/ }).click();
  await expect(page).toHaveURL('/admin/productlist?sortBy=name&order=asc');
  await expect(page.getByRole('columnheader', { name: /^NAME/ })).toHaveAttribute('aria-sort', 'ascending');

  // brand (any case): the three of this test, by name
  await filters(page).getByLabel('Brand').fill(brand.toLowerCase());
  const byBrand = await expectedNames(request, token, { brand: brand.toLowerCase() });
  expect(byBrand).toEqual([alpha!.name, bravo!.name, charlie!.name]);
  await expect(names(page)).toHaveText(byBrand);
  await expect(page.getByTestId('showing')).toHaveText('Showing 3 of 3');

  // price range, from 15 and then up to 25
  await filters(page).getByLabel('Min Price').fill('15');
  await expect(names(page)).toHaveText(await expectedNames(request, token, { brand, minPrice: '15' }));
  await filters(page).getByLabel('Max Price').fill('25');
  const inRange = await expectedNames(request, token, { brand, minPrice: '15', maxPrice: '25' });
  expect(inRange).toEqual([bravo!.name]);
  await expect(names(page)).toHaveText(inRange);
  await expect(rows(page)).toContainText('$22.00');

  // the filters are in the address too: a reload shows the same list
  await expect(page).toHaveURL(/[?&]maxPrice=25/);
  await page.reload();
  await expect(filters(page).getByLabel('Max Price')).toHaveValue('25');
  await expect(names(page)).toHaveText(inRange);

  // the supplier's link (where the merchant buys it) opens in a new tab without an opener
  await expect(page.getByRole('columnheader', { name: 'SUPPLIER LINK' })).toBeVisible();
  const buy = rows(page).getByRole('link', { name: `Supplier's page for ${bravo!.name} (opens in a new tab)` });
  await expect(buy).toHaveAttribute('href', `${link}/1`);
  await expect(buy).toHaveAttribute('target', '_blank');
  await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(rows(page).getByRole('link', { name: `Edit ${bravo!.name}` })).toHaveAttribute(
    'href',
    `/admin/product/${bravo!._id}/edit`,
  );

  // nothing in the range under this name: the empty state
  await filters(page).getByLabel('Brand').fill('');
  await filters(page).getByLabel('Min Price').fill('');
  await filters(page).getByLabel('Max Price').fill('');
  await filters(page).getByLabel('Name', { exact: true }).fill(`listing ${t} c`);
  const byName = await expectedNames(request, token, { name: `listing ${t} c` });
  expect(byName).toEqual([charlie!.name]);
  await expect(names(page)).toHaveText(byName);
  await filters(page).getByLabel('Max Price').fill('1');
  await expect(page.getByText('No products found')).toBeVisible();
  await filters(page).getByLabel('Max Price').fill('');
  await expect(names(page)).toHaveText(byName);

  // delete after a confirmation that names the product; a toast says it is done
  await rows(page)
    .getByRole('button', { name: `Delete ${charlie!.name}` })
    .click();
  const confirm = page.getByRole('dialog', { name: `Delete ${charlie!.name}?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.toast').filter({ hasText: `Product removed: ${charlie!.name}` })).toBeVisible();
  await expect(page.getByText('No products found')).toBeVisible();
  expect((await request.get(`/api/products/${charlie!._id}`)).status()).toBe(404);

  // cancelling keeps the product
  await filters(page).getByLabel('Name', { exact: true }).fill(`listing ${t} a`);
  await expect(names(page)).toHaveText([alpha!.name]);
  await rows(page)
    .getByRole('button', { name: `Delete ${alpha!.name}` })
    .click();
  await page
    .getByRole('dialog', { name: `Delete ${alpha!.name}?` })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(names(page)).toHaveText([alpha!.name]);
  expect((await request.get(`/api/products/${alpha!._id}`)).ok()).toBe(true);
});

test('admin pages through the product list; a filter goes back to the first page', async ({ page, request }) => {
  const token = await signInAdmin(page);
  await page.goto('/admin/productlist');
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  const first = await names(page).first().textContent();
  expect((await expectedNames(request, token, { pageNumber: '2' })).length).toBeGreaterThan(0);

  await pager.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL('/admin/productlist/2');
  await expect(pager.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(names(page).first()).not.toHaveText(first!);
  await expect(rows(page).first()).toBeVisible();

  await pager.getByRole('link', { name: 'Previous page' }).click();
  await expect(page).toHaveURL('/admin/productlist/1');
  await expect(pager.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  // page 1 again (other journeys running beside this one may have added a newer product above it)
  await expect(names(page)).toContainText([first!]);

  // opened directly on page 2, then filtered: back to the first page of the matches
  await page.goto('/admin/productlist/2');
  await expect(pager.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await filters(page).getByLabel('Min Price').fill('0');
  await expect(page).toHaveURL('/admin/productlist?minPrice=0');
});

test('Create Product opens the editor of a new draft, listed as a draft and kept out of the shop', async ({
  page,
  request,
}) => {
  const token = await signInAdmin(page);
  await page.goto('/admin/productlist');
  await page.getByRole('button', { name: 'Create Product' }).click();
  await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}\/edit$/);
  const id = /\/admin\/product\/([0-9a-f]{24})\/edit$/.exec(page.url())![1]!;
  const res = await request.get(`/api/admin/products/${id}`, { headers: bearer(token) });
  expect(res.ok()).toBe(true);
  expect((await res.json()) as Product).toMatchObject({ name: 'Sample name', status: 'draft' });
  expect((await request.get(`/api/products/${id}`)).status()).toBe(404);
  await page.goto('/admin/productlist?status=draft');
  await expect(filters(page).getByLabel('Status')).toHaveValue('draft');
  await expect(page.locator(`[data-testid="product-row"][data-id="${id}"]`)).toContainText('Draft');
  expect((await request.delete(`/api/products/${id}`, { headers: bearer(token) })).ok()).toBe(true);
});

test('Connect AliExpress without configuration says so', async ({ page }) => {
  await signInAdmin(page);
  await page.goto('/admin/productlist');
  await page.getByRole('button', { name: 'Connect AliExpress' }).click();
  await expect(page.getByRole('alert')).toHaveText('AliExpress is not configured');
  await expect(page).toHaveURL('/admin/productlist');
});

const ADMIN_LISTS = [
  { path: '/admin/productlist', heading: 'Products' },
  { path: '/admin/orderlist', heading: 'Orders' },
];

/** The list has loaded: rows (or the empty state) are up. */
async function listLoaded(page: Page, heading: string) {
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
  await expect(page.getByTestId('showing').or(page.getByText(/^No \w+ found$/))).toBeVisible();
}

for (const theme of ['light', 'dark'] as const) {
  test(`the admin lists have no serious axe violations (${theme} theme)`, async ({ browser }) => {
    const page = await freshPage(browser, { theme });
    await signInAdmin(page);
    for (const { path, heading } of ADMIN_LISTS) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
      await listLoaded(page, heading);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    await page.context().close();
  });
}

test('the admin product list fits a 375 px phone, as cards', async ({ browser }) => {
  const page = await freshPage(browser, { width: 375, height: 740 });
  await signInAdmin(page);
  await page.goto('/admin/productlist');
  await listLoaded(page, 'Products');
  const card = page.getByTestId('product-card').first();
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: /^Delete / })).toBeVisible();
  await expect(rows(page).first()).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.context().close();
});
