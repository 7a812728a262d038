import { expect, test } from '@playwright/test';
import { allProducts, freshPage, plainProduct, seriousViolations } from './helpers.ts';

for (const theme of ['light', 'dark'] as const) {
  test.describe(`${theme} theme`, () => {
    test('home has no serious or critical axe violations', async ({ browser }) => {
      const page = await freshPage(browser, { theme });
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-bs-theme', theme);
      await expect(page.locator('.product-card').first()).toBeVisible();
      await expect(page.locator('.top-carousel .carousel-item.active img')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    test('a product page has no serious or critical axe violations', async ({ browser, request }) => {
      const product = (await allProducts(request)).find((p) => p.colorsVariants.length > 0 && p.numReviews > 0)!;
      const page = await freshPage(browser, { theme });
      await page.goto(`/product/${product.slug}`);
      await expect(page.locator('#product-price')).toBeVisible();
      await expect(page.locator('.review').first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    test('the cart has no serious or critical axe violations', async ({ browser, request }) => {
      const product = await plainProduct(request);
      const page = await freshPage(browser, { theme });
      await page.goto(`/cart/${product._id}?qty=2`);
      await expect(page.locator('.cart-line')).toHaveCount(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: /^Remove/ }).click();
      await expect(page.getByText('Your cart is empty.')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  });
}

test('the header is keyboard navigable with a visible focus', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Store' }).first()).toBeFocused();
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('searchbox', { name: 'Search products' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Categories' }).first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('switch')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: /^Cart/ })).toBeFocused();
  await page.getByRole('searchbox', { name: 'Search products' }).focus();
  await page.keyboard.type('lamp');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL('/search/lamp');
});
