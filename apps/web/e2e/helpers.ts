import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import type { Product, ProductListResponse, ProductSummary } from '@store/shared';
import { E2E_PORT } from './env.ts';

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** Money as the store shows it: '$1,607.99'. */
export const formatMoney = (n: number) => USD.format(n);

/**
 * Every product of the catalogue, through the public API, oldest first: the demo catalogue comes first and
 * stays in place while other tests add products of their own (often without images) as the run goes on.
 */
export async function allProducts(request: APIRequestContext): Promise<ProductSummary[]> {
  const out: ProductSummary[] = [];
  let page = 1;
  let pages = 1;
  do {
    const res = await request.get(`/api/products?sortBy=newest&order=asc&pageNumber=${page}`);
    expect(res.ok()).toBe(true);
    const body = (await res.json()) as ProductListResponse;
    out.push(...body.products);
    pages = body.pages;
    page += 1;
  } while (page <= pages);
  return out;
}

export async function getProduct(request: APIRequestContext, idOrSlug: string): Promise<Product> {
  const res = await request.get(`/api/products/${idOrSlug}`);
  expect(res.ok()).toBe(true);
  return (await res.json()) as Product;
}

/** A product in stock without colour variants (the simplest thing to put in a cart). */
export async function plainProduct(request: APIRequestContext, skip = 0): Promise<ProductSummary> {
  const found = (await allProducts(request)).filter((p) => p.countInStock >= 3 && p.colorsVariants.length === 0)[skip];
  if (!found) throw new Error('the demo catalogue has no plain product in stock');
  return found;
}

/** A page with its own context (so each test starts with empty storage), optionally in a theme. */
export async function freshPage(
  browser: Browser,
  opts: { theme?: 'light' | 'dark'; width?: number; height?: number } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
  });
  if (opts.theme) await context.addInitScript((t) => localStorage.setItem('theme', t), opts.theme);
  return context.newPage();
}

export const productCards = (page: Page) => page.locator('.product-card');
export const cartBadge = (page: Page) => page.getByTestId('cart-count');

/** Serious and critical axe violations of the page (WCAG 2.1 A/AA and best practice), readable in a failure. */
export async function seriousViolations(page: Page) {
  // colours are judged as they end, not halfway through a transition (a toggle button that was just
  // pressed fades between its two looks, and a colour sampled then can fail the contrast rule); finite
  // ones only (a spinner's endless animation never finishes), and two seconds at most
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
          .map((a) => a.finished.catch(() => {})),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join('\n  ')}`,
    );
}
