import { gzipSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { signInAdmin } from './accounts.ts';
import { plainProduct, productCards } from './helpers.ts';

// First-load JavaScript of the home and product pages at most 150 KB gzipped (stretch 100),
// and no admin code for shoppers. Measured as the browser loads the page: every script it fetched,
// gzipped here at level 9 (the server may send brotli, which is smaller).
const BUDGET_KB = 150;
const ADMIN_CHUNK =
  /\/assets\/(ProductListAdminPage|ProductEditPage|RichTextEditor|UserListPage|UserEditPage|OrderListPage|OrderCells|CouponListPage|CouponFormModal|AdminDashboardPage|SupportInboxPage)-/;

async function scriptsOf(page: Page, path: string, ready: () => Promise<void>) {
  const bodies = new Map<string, Promise<Buffer | null>>();
  page.on('response', (res) => {
    // a script of the page left behind (its body gone with the navigation) is not part of this page's load
    if (res.request().resourceType() === 'script' && res.ok())
      bodies.set(
        res.url(),
        res.body().catch(() => null),
      );
  });
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all([...bodies].map(async ([url, body]) => ({ url, body: await body })));
  const scripts = loaded.filter((s): s is { url: string; body: Buffer } => s.body !== null);
  const sizes = scripts.map((s) => ({ url: s.url, kb: gzipSync(s.body, { level: 9 }).length / 1024 }));
  const gzipKb = sizes.reduce((sum, s) => sum + s.kb, 0);
  const list = sizes.map((s) => `${new URL(s.url).pathname} ${s.kb.toFixed(1)}`).join(', ');
  return { urls: scripts.map((s) => s.url), gzipKb, list };
}

for (const [name, path, ready] of [
  ['home', '/', (page: Page) => expect(productCards(page).first()).toBeVisible()],
  ['product', null, (page: Page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
] as const) {
  test(`the ${name} page loads at most ${BUDGET_KB} KB of gzipped JavaScript, and no admin code`, async ({
    page,
    request,
  }) => {
    const target = path ?? `/product/${(await plainProduct(request)).slug}`;
    const { urls, gzipKb, list } = await scriptsOf(page, target, () => ready(page));
    test.info().annotations.push({ type: 'first-load JS (KB gzip)', description: gzipKb.toFixed(1) });
    console.log(`${name} (${target}): ${urls.length} scripts, ${gzipKb.toFixed(1)} KB gzipped: ${list}`);
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.filter((u) => ADMIN_CHUNK.test(u))).toEqual([]);
    expect(gzipKb).toBeLessThanOrEqual(BUDGET_KB);
  });
}

test('the admin-code pattern above matches what an admin page loads (so the check can fail)', async ({ page }) => {
  await signInAdmin(page);
  const { urls } = await scriptsOf(page, '/admin/productlist', () =>
    expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible(),
  );
  expect(urls.filter((u) => ADMIN_CHUNK.test(u)).length).toBeGreaterThan(0);
});
