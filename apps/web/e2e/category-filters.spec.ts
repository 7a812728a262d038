import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Category, ProductListResponse } from '@store/shared';
import { freshPage, productCards, seriousViolations } from './helpers.ts';

/** A root category that has children, and its answer's facets. */
async function rootWithChildren(request: APIRequestContext) {
  const roots = (await (await request.get('/api/categories/roots')).json()) as Category[];
  const root = roots.find((c) => c.hasChildren);
  if (!root) throw new Error('the demo catalogue has no category with children');
  const list = (await (await request.get(`/api/products?category=${root.slug}`)).json()) as ProductListResponse;
  return { root, list };
}

const cardPrices = async (page: Page) =>
  (await page.locator('.product-card-price').allTextContents()).map((t) => Number(t.replace(/[^0-9.]/g, '')));

test('a shopper opens a category, filters it by brand and price, sorts, reloads and goes back', async ({
  page,
  request,
}) => {
  const { root, list } = await rootWithChildren(request);
  // a brand with several products in the category
  const brand = list.facets.brands.find((b) => b.count >= 2) ?? list.facets.brands[0]!;

  await page.goto('/');
  await page.getByRole('button', { name: 'Categories' }).first().click();
  await page.getByRole('link', { name: root.name, exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/category/${root.slug}$`));
  await expect(page.getByRole('heading', { level: 1, name: root.name })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(root.name);
  await expect(page).toHaveTitle(`${root.name} | Store`);

  // brand
  await page.getByRole('checkbox', { name: `${brand.name} (${brand.count})` }).check();
  await expect(page).toHaveURL(/brand=/);
  await expect(productCards(page)).toHaveCount(Math.min(brand.count, 24));

  // price: up to the middle of the brand's range in the category
  const withBrand = (await (
    await request.get(`/api/products?category=${root.slug}&brand=${encodeURIComponent(brand.name)}`)
  ).json()) as ProductListResponse;
  const max = Math.ceil(((withBrand.facets.price.min ?? 0) + (withBrand.facets.price.max ?? 0)) / 2);
  await page.getByLabel('Max ($)').fill(String(max));
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`maxPrice=${max}`));
  const expected = (await (
    await request.get(`/api/products?category=${root.slug}&brand=${encodeURIComponent(brand.name)}&maxPrice=${max}`)
  ).json()) as ProductListResponse;
  await expect(productCards(page)).toHaveCount(Math.min(expected.total, 24));

  // sort by price, high to low
  await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
  await expect(page).toHaveURL(/sortBy=price&order=desc/);
  await expect
    .poll(async () => {
      const prices = await cardPrices(page);
      return prices.length > 0 && prices.every((p, i) => i === 0 || prices[i - 1]! >= p);
    })
    .toBe(true);
  const firstHref = await productCards(page).first().locator('a').getAttribute('href');

  // reload: the same list, the same choices
  await page.reload();
  await expect(page.getByRole('checkbox', { name: new RegExp(`^${brand.name} \\(`) })).toBeChecked();
  await expect(page.getByLabel('Max ($)')).toHaveValue(String(max));
  await expect(page.getByLabel('Sort by')).toHaveValue('price-desc');
  await expect(productCards(page).first().locator('a')).toHaveAttribute('href', firstHref!);

  // back: one choice at a time
  await page.goBack();
  await expect(page).not.toHaveURL(/sortBy=/);
  await expect(page).toHaveURL(new RegExp(`maxPrice=${max}`));
  await page.goBack();
  await expect(page).not.toHaveURL(/maxPrice=/);
  await expect(page.getByRole('checkbox', { name: new RegExp(`^${brand.name} \\(`) })).toBeChecked();
});

test('a filter that empties the list says so and offers to clear it', async ({ page, request }) => {
  const { root } = await rootWithChildren(request);
  await page.goto(`/category/${root.slug}?minPrice=999999&inStock=true`);
  await expect(page.getByText('No products match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL(new RegExp(`/category/${root.slug}$`));
  await expect(productCards(page).first()).toBeVisible();
});

test('search results take the same filters, and a typo search says what it showed', async ({ page }) => {
  await page.goto('/search/hedphones');
  await expect(page.getByTestId('search-suggestion')).toContainText('Showing results for');
  await page.goto('/search/headphones?sortBy=price&order=asc');
  await expect(page.getByLabel('Sort by')).toHaveValue('price-asc');
  await expect(productCards(page).first()).toBeVisible();
  const prices = await cardPrices(page);
  expect(prices.length).toBeGreaterThan(0);
  expect(prices.every((p, i) => i === 0 || prices[i - 1]! <= p)).toBe(true);
});

test('at 375 px the filters and the category menu are drawers', async ({ browser, request }) => {
  const { root } = await rootWithChildren(request);
  const page = await freshPage(browser, { width: 375, height: 740 });
  await page.goto(`/category/${root.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: root.name })).toBeVisible();
  const filters = page.getByRole('button', { name: /^Filters/ });
  await filters.click();
  const drawer = page.getByRole('dialog', { name: 'Filters' });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('checkbox').first().check();
  await expect(page).toHaveURL(/brand=/);
  await drawer.getByRole('button', { name: 'Close filters' }).click();
  await expect(drawer).toBeHidden();
  // nothing scrolls sideways
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Categories' }).last().click();
  const menu = page.getByRole('dialog', { name: 'Categories' });
  await expect(menu).toBeVisible();
  await menu.getByRole('link', { name: root.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/category/${root.slug}$`));
  await page.context().close();
});

for (const theme of ['light', 'dark'] as const)
  test(`a filtered category page and its drawer have no serious axe violations (${theme})`, async ({
    browser,
    request,
  }) => {
    const { root, list } = await rootWithChildren(request);
    const page = await freshPage(browser, { theme });
    await page.goto(
      `/category/${root.slug}?brand=${encodeURIComponent(list.facets.brands[0]!.name)}&sortBy=price&order=asc`,
    );
    await expect(productCards(page).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    await page.getByRole('button', { name: /^Filters/ }).click();
    await expect(page.getByRole('dialog', { name: 'Filters' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
