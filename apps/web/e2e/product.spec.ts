import { expect, test } from '@playwright/test';
import { allProducts, formatMoney, getProduct } from './helpers.ts';

type JsonLd = Record<string, unknown> & { '@type': string };

function ldFromHtml(html: string, id: string): JsonLd {
  const m = new RegExp(`<script type="application/ld\\+json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
  expect(m, `served HTML has script#${id}`).toBeTruthy();
  return JSON.parse(m![1]!) as JsonLd;
}

test('picking a colour variant with its own price changes the shown price', async ({ page, request }) => {
  const products = await allProducts(request);
  const product = products.find(
    (p) => p.countInStock > 0 && p.colorsVariants.some((v) => typeof v.price === 'number' && v.price !== p.price),
  );
  expect(product, 'the demo catalogue has a variant with its own price').toBeTruthy();
  const variant = product!.colorsVariants.find((v) => typeof v.price === 'number' && v.price !== product!.price)!;

  await page.goto(`/product/${product!.slug}`);
  const price = page.locator('#product-price');
  await expect(price).toContainText(formatMoney(product!.price));
  const button = page.getByRole('button', { name: new RegExp(`^${variant.name}\\b`) });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(price).toContainText(formatMoney(variant.price!));
  await expect(price).not.toContainText(formatMoney(product!.price));

  // A variant without its own price goes back to the product's price.
  const plain = product!.colorsVariants.find((v) => v.price == null);
  if (plain) {
    await page.getByRole('button', { name: new RegExp(`^${plain.name}\\b`) }).click();
    await expect(price).toContainText(formatMoney(product!.price));
  }
});

test('the product page shows its details, stock and the sign-in prompt for reviews', async ({ page, request }) => {
  const summary = (await allProducts(request)).find((p) => p.countInStock > 0 && p.numReviews > 0)!;
  const product = await getProduct(request, summary.slug);
  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
  await expect(page).toHaveTitle(`${product.name} | Store`);
  await expect(page.getByText('Shipping Cost:')).toContainText('Free');
  await expect(page.getByText('In Stock', { exact: true })).toBeVisible();
  const qty = page.getByLabel('Quantity');
  await expect(qty).toHaveValue('1');
  await expect(qty).toHaveAttribute('max', String(Math.min(product.countInStock, 10_000)));
  await expect(page.locator('.product-facts')).toContainText(product.brand);
  await expect(page.locator('.product-facts')).toContainText(product.category);
  await expect(page.locator('.review')).toHaveCount(product.reviews.length);
  const verified = product.reviews.filter((r) => r.verifiedPurchase).length;
  await expect(page.locator('.review').getByText('Verified purchase')).toHaveCount(verified);
  await expect(page.getByText('Please sign in to write a review')).toBeVisible();
  await expect(page.getByRole('link', { name: 'sign in', exact: true })).toHaveAttribute(
    'href',
    `/login?redirect=/product/${product.slug}`,
  );
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
});

test('an out-of-stock product cannot be added to the cart', async ({ page, request }) => {
  const product = (await allProducts(request)).find((p) => p.countInStock === 0);
  expect(product, 'the demo catalogue has an out-of-stock product').toBeTruthy();
  await page.goto(`/product/${product!.slug}`);
  await expect(page.getByText('Out Of Stock')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add To Cart' })).toBeDisabled();
});

test('the gallery switches images from thumbnails and selects by a long press', async ({ page, request }) => {
  const summary = (await allProducts(request)).find((p) => p.colorsVariants.some((v) => v.src))!;
  const product = await getProduct(request, summary.slug);
  const variant = product.colorsVariants.find((v) => v.src && v.src !== product.image)!;
  await page.goto(`/product/${product.slug}`);
  const main = page.locator('.gallery-main img');
  await expect(main).toHaveAttribute('src', product.image);

  // thumbnail click shows it and, for a variant's picture, picks that variant
  await page.getByRole('button', { name: `Show ${product.name} in ${variant.name}` }).click();
  await expect(main).toHaveAttribute('src', variant.src);
  await expect(page.getByRole('button', { name: new RegExp(`^${variant.name}\\b`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  // browse back to the first picture, then pick a variant's picture by a long press
  await page.goto(`/product/${product.slug}`);
  await expect(main).toHaveAttribute('src', product.image);
  const index = (
    await page.locator('.gallery-thumb').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
  ).indexOf(`Show ${product.name} in ${variant.name}`);
  expect(index).toBeGreaterThan(0);
  for (let i = 0; i < index; i++) await page.getByRole('button', { name: 'Next image' }).click();
  await expect(main).toHaveAttribute('src', variant.src);
  const variantButton = page.getByRole('button', { name: new RegExp(`^${variant.name}\\b`) });
  await expect(variantButton).toHaveAttribute('aria-pressed', 'false');
  const box = (await main.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.waitForTimeout(300);
  await expect(variantButton).toHaveAttribute('aria-pressed', 'false'); // not yet: 600 ms
  await page.waitForTimeout(500);
  await page.mouse.up();
  await expect(variantButton).toHaveAttribute('aria-pressed', 'true');
});

test('a product id in the address is replaced by the slug', async ({ page, request }) => {
  const product = (await allProducts(request))[0]!;
  await page.goto(`/product/${product._id}`);
  await expect(page).toHaveURL(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
});

test('an unknown product shows a not-found state', async ({ page }) => {
  await page.goto('/product/no-such-product-anywhere');
  await expect(page.getByRole('heading', { name: 'Product not found' })).toBeVisible();
});

test('Product and BreadcrumbList JSON-LD are in the served HTML and in the DOM', async ({ page, request }) => {
  const product = (await allProducts(request)).find((p) => p.category)!;
  const res = await request.get(`/product/${product.slug}`);
  expect(res.status()).toBe(200);
  const html = await res.text();
  const ld = ldFromHtml(html, 'ld-product');
  expect(ld['@type']).toBe('Product');
  expect(ld.name).toBe(product.name);
  expect((ld.offers as { price: string }).price).toBe(product.price.toFixed(2));
  const crumbs = ldFromHtml(html, 'ld-breadcrumbs');
  expect(crumbs['@type']).toBe('BreadcrumbList');
  const items = crumbs.itemListElement as { name: string }[];
  expect(items.at(-1)?.name).toBe(product.name);

  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
  const domLd = async (id: string) => JSON.parse((await page.locator(`script#${id}`).textContent()) ?? '{}') as JsonLd;
  expect((await domLd('ld-product'))['@type']).toBe('Product');
  expect((await domLd('ld-product')).name).toBe(product.name);
  expect((await domLd('ld-breadcrumbs'))['@type']).toBe('BreadcrumbList');
  await expect(page.locator('script#ld-product')).toHaveCount(1);

  // after client-side navigation the head describes the new product, and leaving removes it
  await page.goto('/');
  await expect(page.locator('script#ld-product')).toHaveCount(0);
  const link = page.locator('.product-card h2 a').first();
  const href = (await link.getAttribute('href'))!;
  await link.click();
  await expect(page).toHaveURL(href);
  const other = await getProduct(request, href.replace('/product/', ''));
  await expect.poll(async () => (await domLd('ld-product')).name).toBe(other.name);
  await expect(page).toHaveTitle(`${other.name} | Store`);
});
