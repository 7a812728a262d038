import { expect, test } from '@playwright/test';
import { allProducts, cartBadge, formatMoney, plainProduct } from './helpers.ts';

test('Add To Cart puts the product in the cart and the header badge counts it', async ({ page, request }) => {
  const product = await plainProduct(request);
  await page.goto(`/product/${product.slug}`);
  await expect(cartBadge(page)).toHaveCount(0);
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'Add To Cart' }).click();

  await expect(page).toHaveURL('/cart');
  await expect(cartBadge(page)).toHaveText('2');
  await expect(page.getByRole('link', { name: 'Cart, 2 items' })).toBeVisible();
  const line = page.locator('.cart-line');
  await expect(line).toHaveCount(1);
  await expect(line.getByRole('link', { name: product.name })).toHaveAttribute('href', `/product/${product.slug}`);
  await expect(page.getByRole('heading', { name: 'Subtotal (2 items)' })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText(formatMoney(product.price * 2));

  // the same product again raises the quantity of the line instead of adding one
  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: 'Add To Cart' }).click();
  await expect(page).toHaveURL('/cart');
  await expect(page.locator('.cart-line')).toHaveCount(1);
  await expect(cartBadge(page)).toHaveText('3');

  // the cart survives a reload
  await page.reload();
  await expect(page.locator('.cart-line')).toHaveCount(1);
  await expect(cartBadge(page)).toHaveText('3');
});

test('a variant needs choosing, and each variant is its own line at its own price', async ({ page, request }) => {
  const product = (await allProducts(request)).find(
    // a demo product: two or more variants, one priced apart (other tests add one-variant products)
    (p) =>
      p.countInStock > 0 &&
      p.colorsVariants.length > 1 &&
      p.colorsVariants.some((v) => typeof v.price === 'number' && v.price !== p.price),
  )!;
  const priced = product.colorsVariants.find((v) => typeof v.price === 'number' && v.price !== product.price)!;
  const other = product.colorsVariants.find((v) => v._id !== priced._id)!;

  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: 'Add To Cart' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please choose a colour.');
  await expect(page).toHaveURL(`/product/${product.slug}`);

  await page.getByRole('button', { name: new RegExp(`^${priced.name}\\b`) }).click();
  await page.getByRole('button', { name: 'Add To Cart' }).click();
  await expect(page).toHaveURL('/cart');
  await page.goto(`/product/${product.slug}`);
  await page.getByRole('button', { name: new RegExp(`^${other.name}\\b`) }).click();
  await page.getByRole('button', { name: 'Add To Cart' }).click();
  await expect(page).toHaveURL('/cart');

  await expect(page.locator('.cart-line')).toHaveCount(2);
  await expect(page.locator('.cart-line', { hasText: `Colour: ${priced.name}` })).toContainText(
    formatMoney(priced.price!),
  );
  const otherPrice = other.price ?? product.price;
  await expect(page.getByTestId('cart-total')).toHaveText(formatMoney(priced.price! + otherPrice));
});

test('changing a quantity and removing a line update the subtotal', async ({ page, request }) => {
  const a = await plainProduct(request, 0);
  const b = await plainProduct(request, 1);
  await page.goto(`/cart/${a._id}?qty=1`);
  await expect(page).toHaveURL('/cart');
  await page.goto(`/cart/${b._id}?qty=2`);
  await expect(page).toHaveURL('/cart');
  await expect(page.locator('.cart-line')).toHaveCount(2);
  await expect(page.getByRole('heading', { name: 'Subtotal (3 items)' })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText(formatMoney(a.price + b.price * 2));

  const qtyA = page.getByLabel(`Quantity of ${a.name}`);
  await expect(qtyA).toHaveAttribute('max', String(a.countInStock));
  await qtyA.fill('3');
  await expect(page.getByRole('heading', { name: 'Subtotal (5 items)' })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText(formatMoney(a.price * 3 + b.price * 2));
  await expect(cartBadge(page)).toHaveText('5');

  await page.getByRole('button', { name: `Remove ${b.name} from cart` }).click();
  await expect(page.locator('.cart-line')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Subtotal (3 items)' })).toBeVisible();
  await expect(page.getByTestId('cart-total')).toHaveText(formatMoney(a.price * 3));

  await page.getByRole('button', { name: `Remove ${a.name} from cart` }).click();
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(cartBadge(page)).toHaveCount(0);
  await page.getByRole('link', { name: 'Go shopping' }).click();
  await expect(page).toHaveURL('/');
});

test('arriving at /cart/{id} adds the line once, capped at the stock, with the chosen variant', async ({
  page,
  request,
}) => {
  const product = (await allProducts(request)).find((p) => p.countInStock > 0 && p.colorsVariants.length > 0)!;
  const variant = product.colorsVariants[0]!;
  await page.goto(`/cart/${product._id}?qty=${product.countInStock + 5}&selectedColorsVariants=${variant._id}`);
  await expect(page).toHaveURL('/cart');
  const line = page.locator('.cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(`Colour: ${variant.name}`);
  await expect(line).toContainText(formatMoney(variant.price ?? product.price));
  await expect(cartBadge(page)).toHaveText(String(product.countInStock));
  await page.reload();
  await expect(cartBadge(page)).toHaveText(String(product.countInStock));

  await page.getByRole('link', { name: 'Keep Shopping!' }).click();
  await expect(page).toHaveURL('/');
});
