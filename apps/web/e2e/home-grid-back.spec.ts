import { expect, test, type Page } from '@playwright/test';
import { productCards } from './helpers.ts';

const hrefs = (page: Page) =>
  page.locator('.product-card a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));

test('Back from a product returns to the same grid, in the same order, at the same place; so does reload', async ({
  page,
}) => {
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(24);
  // down to the fourth screen
  for (let i = 0; i < 4; i++) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(300);
  }
  await expect.poll(() => productCards(page).count()).toBeGreaterThanOrEqual(48);
  const before = await hrefs(page);
  const y = await page.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(1500);

  // a card in view
  const target = page.locator('.product-card a').nth(before.length - 6);
  const targetHref = await target.getAttribute('href');
  await target.scrollIntoViewIfNeeded();
  const yAtClick = await page.evaluate(() => window.scrollY);
  await target.click();
  await expect(page).toHaveURL(targetHref!);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // (near the end of what is shown the grid may grow again: what was there stays, in its order)
  await page.goBack();
  await expect.poll(() => productCards(page).count()).toBeGreaterThanOrEqual(before.length);
  expect((await hrefs(page)).slice(0, before.length)).toEqual(before);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(yAtClick - 10);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - yAtClick)).toBeLessThanOrEqual(10);

  await page.reload();
  await expect.poll(() => productCards(page).count()).toBeGreaterThanOrEqual(before.length);
  expect((await hrefs(page)).slice(0, before.length)).toEqual(before);
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBeGreaterThan(yAtClick - 10);
});

test('the first screen reads one or two pages of cards, not the whole catalogue', async ({ page }) => {
  const lists: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/products') lists.push(url.search);
  });
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(24);
  await page.waitForTimeout(1500);
  expect(lists.length).toBeGreaterThanOrEqual(1);
  expect(lists.length).toBeLessThanOrEqual(2);
  expect(lists.every((q) => q.includes('fields=card'))).toBe(true);
  // the count is the catalogue's, from the first page on
  const count = await page.locator('#latest-heading + span').textContent();
  await page.mouse.wheel(0, 3000);
  await page.waitForTimeout(800);
  expect(await page.locator('#latest-heading + span').textContent()).toBe(count);
});
