import { expect, test, type APIRequestContext, type Browser } from '@playwright/test';
import type { Product, ProductListResponse } from '@store/shared';
import sharp from 'sharp';
import { signInAdmin } from './accounts.ts';
import { formatMoney, freshPage } from './helpers.ts';

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** What a shopper's search for `keyword` lists (ids). */
async function shopSearch(request: APIRequestContext, keyword: string): Promise<string[]> {
  const res = await request.get(`/api/products?keyword=${encodeURIComponent(keyword)}&pageSize=100`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as ProductListResponse).products.map((p) => p._id);
}

/** A shopper's view of the product page: the 'not found' page, or the product's heading. */
async function shopperSees(browser: Browser, slug: string) {
  const page = await freshPage(browser);
  await page.goto(`/product/${slug}`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toBeVisible();
  const text = await heading.textContent();
  await page.context().close();
  return text;
}

test('a product goes from nothing to live without ever showing in the shop as a sample', async ({
  page,
  request,
  browser,
}) => {
  const token = await signInAdmin(page);
  await page.goto('/admin/productlist');
  await page.getByRole('button', { name: 'Create Product' }).click();
  await expect(page).toHaveURL(/\/admin\/product\/[0-9a-f]{24}\/edit$/);
  const id = /\/admin\/product\/([0-9a-f]{24})\/edit$/.exec(page.url())![1]!;
  await expect(page.getByTestId('product-status')).toHaveText('Draft');
  const draft = (await (await request.get(`/api/admin/products/${id}`, { headers: bearer(token) })).json()) as Product;

  // the sample is nowhere in the shop: not by id, slug or search, nor on its page
  expect((await request.get(`/api/products/${id}`)).status()).toBe(404);
  expect((await request.get(`/api/products/slug/${draft.slug}`)).status()).toBe(404);
  expect(await shopSearch(request, 'Sample name')).not.toContain(id);
  expect(await shopperSees(browser, draft.slug)).toBe('Product not found');

  // publishing the placeholder is refused with a clear message; it stays a draft
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: "Give the product a real name (not 'Sample name')" }),
  ).toBeVisible();
  await expect(page.getByTestId('product-status')).toHaveText('Draft');

  // a real name and price, saved as a draft: still out of the shop
  const t = tag();
  const name = `Linen Apron ${t}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Price').fill('24.5');
  await page.getByLabel('Count In Stock').fill('8');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByText('Draft saved. Shoppers do not see it until you publish it.')).toBeVisible();
  expect(await shopSearch(request, name)).toEqual([]);
  expect((await request.get(`/api/products/${id}`)).status()).toBe(404);

  // no image yet: the editor warns; an upload (folder named after the product) becomes the main image
  await expect(page.getByText(/no main image yet/)).toBeVisible();
  await expect(page.getByLabel('Image Gallery Folder Name')).not.toHaveValue('');
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .png()
    .toBuffer();
  await page.getByLabel('Upload Images').setInputFiles([{ name: 'apron.png', mimeType: 'image/png', buffer: png }]);
  const status = page.getByRole('dialog', { name: 'Upload Status' });
  await expect(status.getByTestId('upload-row-status')).toHaveText('Done');
  await status.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByTestId('gallery-list-item')).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Main Image' })).toHaveValue(/\/apron-[0-9a-f]{12}\.webp$/);
  await expect(page.getByText(/no main image yet/)).toBeHidden();
  // the upload attached itself to the stored product, which is still a draft
  const attached = (await (
    await request.get(`/api/admin/products/${id}`, { headers: bearer(token) })
  ).json()) as Product;
  expect(attached).toMatchObject({ status: 'draft', image: expect.stringMatching(/\/apron-/) });
  expect(attached.imageB).toHaveLength(1);

  // published: in the shop under its real name, never as the sample
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Product published.')).toBeVisible();
  await expect(page.getByTestId('product-status')).toHaveText('Active');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeVisible();
  expect(await shopSearch(request, name)).toEqual([id]);
  const live = (await (await request.get(`/api/products/${id}`)).json()) as Product;
  expect(live).toMatchObject({ name, price: 24.5 });
  const shopper = await freshPage(browser);
  await shopper.goto(`/product/${live.slug}`);
  await expect(shopper.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(shopper.locator('#product-price')).toContainText(formatMoney(24.5));
  await shopper.context().close();
});

test('the admin bulk-deletes two products after one confirmation naming them', async ({ page, request }) => {
  const token = await signInAdmin(page);
  const t = tag();
  const made: Product[] = [];
  for (const label of ['One', 'Two', 'Three']) {
    const created = (await (await request.post('/api/products', { headers: bearer(token) })).json()) as Product;
    const res = await request.put(`/api/products/${created._id}`, {
      headers: bearer(token),
      data: { name: `Bulk ${t} ${label}`, price: 5, countInStock: 2 },
    });
    expect(res.ok()).toBe(true);
    made.push((await res.json()) as Product);
  }
  const [one, two, three] = made as [Product, Product, Product];

  await page.goto(`/admin/productlist?name=${encodeURIComponent(`bulk ${t}`)}&sortBy=name&order=asc`);
  const rows = page.getByTestId('product-row');
  await expect(rows).toHaveCount(3);
  // stock with its low-stock mark, and the status, in the row
  await expect(rows.first()).toContainText('2Low stock');
  await expect(rows.first()).toContainText('Active');

  const toolbar = page.getByRole('toolbar', { name: 'Bulk actions on the selected products' });
  await expect(toolbar.getByRole('button', { name: 'Delete selected products' })).toBeDisabled();
  await page.getByRole('checkbox', { name: `Select ${one.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${three.name}` }).check();
  await expect(page.getByTestId('selected-count')).toHaveText('2 products selected');

  // first a change that is not destructive: set both to draft, confirmed by a toast
  await toolbar.getByRole('button', { name: 'Set to draft' }).click();
  let confirm = page.getByRole('dialog', { name: 'Set to draft: 2 products?' });
  await expect(confirm.getByTestId('confirm-names')).toHaveText(`${one.name}${three.name}`);
  await confirm.getByRole('button', { name: 'Set to draft' }).click();
  await expect(page.locator('.toast').filter({ hasText: '2 products set to draft' })).toBeVisible();
  // by name: One, Three, Two
  await expect(rows.nth(0)).toContainText('Draft');
  await expect(rows.nth(1)).toContainText('Draft');
  await expect(rows.nth(2)).toContainText('Active');

  // then the delete: one confirmation naming how many and which
  await page.getByRole('checkbox', { name: `Select ${one.name}` }).check();
  await page.getByRole('checkbox', { name: `Select ${three.name}` }).check();
  await toolbar.getByRole('button', { name: 'Delete selected products' }).click();
  confirm = page.getByRole('dialog', { name: 'Delete: 2 products?' });
  await expect(confirm).toContainText('Delete 2 products (this cannot be undone):');
  await expect(confirm.getByTestId('confirm-names')).toHaveText(`${one.name}${three.name}`);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('.toast').filter({ hasText: '2 products deleted' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(two.name);
  for (const gone of [one, three])
    expect((await request.get(`/api/admin/products/${gone._id}`, { headers: bearer(token) })).status()).toBe(404);
  expect((await request.get(`/api/products/${two._id}`)).ok()).toBe(true);
});
