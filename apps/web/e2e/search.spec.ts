import { expect, test, type APIRequestContext } from '@playwright/test';
import type { ProductListResponse } from '@store/shared';
import { allProducts, productCards } from './helpers.ts';

test('typing in the header search lists matching products', async ({ page, request }) => {
  const expected = (await (await request.get('/api/products?keyword=headphones')).json()) as ProductListResponse;
  expect(expected.total).toBeGreaterThan(0);

  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await expect(box).toHaveAttribute('placeholder', 'Search products...');
  await box.fill('headphones');
  await box.press('Enter');

  await expect(page).toHaveURL('/search/headphones');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('headphones');
  await expect(productCards(page)).toHaveCount(expected.products.length);
  const shown = await page.locator('.product-card h2 a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(shown).toEqual(expected.products.map((p) => `/product/${p.slug}`));
  expect(shown.length).toBeGreaterThan(0);
  await expect(page.locator('.product-card h2').first()).toContainText(/headphone/i);

  await page.getByRole('link', { name: /Go Back/ }).click();
  await expect(page).toHaveURL('/');
});

test('an empty search goes home', async ({ page }) => {
  await page.goto('/search/lamp');
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await expect(box).toHaveValue('lamp');
  await box.fill('   ');
  await box.press('Enter');
  await expect(page).toHaveURL('/');
  await expect(productCards(page).first()).toBeVisible();
});

test("the search box limits its length to the server's max name length", async ({ page, request }) => {
  const { maxNameLength } = (await (await request.get('/api/products/max-name-length')).json()) as {
    maxNameLength: number;
  };
  await page.goto('/');
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveAttribute(
    'maxlength',
    String(maxNameLength),
  );
});

test('a search without results says so', async ({ page }) => {
  await page.goto('/search/qqqxxzzvv');
  await expect(page.getByText('No products found')).toBeVisible();
  await expect(productCards(page)).toHaveCount(0);
});

test('paged lists link between pages and keep the keyword', async ({ page, request }) => {
  const total = (await allProducts(request)).length;
  expect(total).toBeGreaterThan(24);
  await page.goto('/page/2');
  await expect(productCards(page)).toHaveCount(Math.min(24, total - 24));
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await pager.getByRole('link', { name: 'Page 1' }).click();
  await expect(page).toHaveURL('/page/1');
  await expect(productCards(page)).toHaveCount(24);

  // A keyword with more than one page keeps the keyword in the page links.
  const keyword = await multiPageKeyword(request);
  await page.goto(`/search/${keyword}`);
  const keywordPager = page.getByRole('navigation', { name: 'Pages' });
  await expect(keywordPager.getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', `/search/${keyword}/page/2`);
  await keywordPager.getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL(`/search/${keyword}/page/2`);
  await expect(productCards(page).first()).toBeVisible();
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue(keyword);
});

/** A word that finds more than one page of products (tried from the most common words of names and descriptions). */
async function multiPageKeyword(request: APIRequestContext): Promise<string> {
  const products = await allProducts(request);
  const freq = new Map<string, number>();
  for (const p of products)
    for (const w of `${p.name} ${p.brand} ${p.category}`.toLowerCase().match(/[a-z]{4,}/g) ?? [])
      freq.set(w, (freq.get(w) ?? 0) + 1);
  const candidates = [
    ...[...freq.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([w]) => w)
      .slice(0, 15),
    'support',
    'warranty',
  ];
  for (const word of candidates) {
    const res = (await (await request.get(`/api/products?keyword=${word}`)).json()) as ProductListResponse;
    if (res.pages > 1) return word;
  }
  throw new Error('no keyword finds more than one page of products');
}

test('long names are cut on cards (over 40 characters: 60 plus an ellipsis)', async ({ page, request }) => {
  const long = (await allProducts(request)).find((p) => p.name.length > 60);
  expect(long, 'the demo catalogue has names over 60 characters').toBeTruthy();
  await page.goto(`/search/${encodeURIComponent(long!.name.split(' ').slice(0, 3).join(' '))}`);
  const card = page.locator('.product-card', { has: page.locator(`a[href="/product/${long!.slug}"]`) });
  await expect(card.locator('h2')).toHaveText(`${long!.name.slice(0, 60)}…`);
});
