import { expect, test } from '@playwright/test';
import { allProducts, formatMoney, productCards } from './helpers.ts';

const scrollToBottom = (page: import('@playwright/test').Page) =>
  page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

test('the top-products carousel shows image, name and price of the top products', async ({ page, request }) => {
  const top = (await (await request.get('/api/products/top')).json()) as { name: string; price: number }[];
  expect(top.length).toBeGreaterThan(0);
  await page.goto('/');
  const active = page.locator('.top-carousel .carousel-item.active');
  await expect(active.locator('.top-slide-name')).toHaveText(top[0]!.name);
  await expect(active.locator('.top-slide-price')).toHaveText(formatMoney(top[0]!.price));
  await expect(active.locator('img')).toHaveAttribute('alt', top[0]!.name);
});

test('the grid shows a first batch of 24 on desktop and grows when scrolled past 75%', async ({ page }) => {
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(24);
  const first = await productCards(page).first().locator('a').getAttribute('href');
  expect(first).toMatch(/^\/product\/[a-z0-9-]+$/);

  await scrollToBottom(page);
  await expect(productCards(page)).toHaveCount(48);
  await scrollToBottom(page);
  await expect.poll(() => productCards(page).count()).toBeGreaterThan(48);
});

test('a phone-sized viewport gets batches of 8', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 700 } });
  const page = await context.newPage();
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(8);
  await scrollToBottom(page);
  await expect(productCards(page)).toHaveCount(16);
  await context.close();
});

test('every product comes without duplicates, then recycles up to three times the catalogue', async ({
  page,
  request,
}) => {
  const total = (await allProducts(request)).length;
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(24);

  // Keep scrolling until the grid stops growing.
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const n = await productCards(page).count();
    if (n === last && n >= total * 3) break;
    last = n;
    await scrollToBottom(page);
    await page.waitForTimeout(400);
  }
  const hrefs = await page.locator('.product-card a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(hrefs).toHaveLength(total * 3);
  const firstRound = hrefs.slice(0, total);
  expect(new Set(firstRound).size).toBe(total); // all products once before any repeats
  const counts = new Map<string | null, number>();
  for (const h of hrefs) counts.set(h, (counts.get(h) ?? 0) + 1);
  expect([...counts.values()].every((c) => c === 3)).toBe(true);
  await expect(page.getByText("You've seen it all")).toBeVisible();
});

test('nothing is appended while the pointer is held down', async ({ page }) => {
  await page.goto('/');
  await expect(productCards(page)).toHaveCount(24);
  await page.mouse.move(5, 300);
  await page.mouse.down();
  await scrollToBottom(page);
  await page.waitForTimeout(800);
  await expect(productCards(page)).toHaveCount(24);
  await page.mouse.up();
  await expect(productCards(page)).toHaveCount(48);
});

test('a card links to its product page', async ({ page }) => {
  await page.goto('/');
  const link = productCards(page).first().locator('h2 a');
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(href!);
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.locator('#product-price')).toContainText('$');
});
