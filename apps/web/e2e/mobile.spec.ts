import { expect, test, type Page } from '@playwright/test';
import { allProducts } from './helpers.ts';

test.use({ viewport: { width: 375, height: 740 } });

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('at 375 px the header collapses into a menu and nothing scrolls sideways', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('.product-card').first()).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await expect(search).toBeHidden();
  await expect(page.getByRole('link', { name: /^Cart/ })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(search).toBeVisible();
  await expect(page.getByRole('switch', { name: /Light|Dark/ })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await search.fill('bag');
  await search.press('Enter');
  await expect(page).toHaveURL('/search/bag');
  await expect(search).toBeHidden(); // the menu closes after searching
});

test('at 375 px a product page with a long name does not scroll sideways', async ({ page, request }) => {
  const products = await allProducts(request);
  const long = products.reduce((a, b) => (b.name.length > a.name.length ? b : a));
  await page.goto(`/product/${long.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(long.name);
  await expect(page.locator('.gallery-main img')).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  const box = await page.getByRole('button', { name: 'Add To Cart' }).boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
});
