import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { PRODUCT_MESSAGES, type Product, type ProductUpdateInput } from '@store/shared';
import { signInAdmin, solveCaptcha } from './accounts.ts';
import { fillShipping, uniqueEmail, US_ADDRESS } from './checkout.ts';
import { cartBadge, freshPage, getProduct, seriousViolations } from './helpers.ts';

// Colour variants with their own stock and SKU: the product page, the cart and the checkout sell from
// the chosen variant's stock; the admin sets it in the product editor.

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

let adminToken = '';

test.beforeAll(async ({ browser }) => {
  const page = await freshPage(browser);
  adminToken = await signInAdmin(page);
  await page.context().close();
});

/** A product of this test: the sample the server creates, then given these fields. */
async function makeProduct(request: APIRequestContext, fields: ProductUpdateInput): Promise<Product> {
  const created = await request.post('/api/products', { headers: bearer(adminToken) });
  expect(created.status()).toBe(201);
  const { _id } = (await created.json()) as Product;
  return updateProduct(request, _id, fields);
}

async function updateProduct(request: APIRequestContext, id: string, fields: ProductUpdateInput): Promise<Product> {
  const res = await request.put(`/api/products/${id}`, { headers: bearer(adminToken), data: fields });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as Product;
}

const variantButton = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}\\b`) });
const addToCart = (page: Page) => page.getByRole('button', { name: 'Add To Cart' });
const stockStatus = (page: Page) => page.getByTestId('stock-status');

test('a sold-out variant is marked on its swatch and cannot be bought; the others can', async ({
  browser,
  page,
  request,
}) => {
  const t = tag();
  const product = await makeProduct(request, {
    name: `Mug ${t}`,
    price: 10,
    countInStock: 20,
    colorsVariants: [
      { name: 'Blue', src: '', price: null, countInStock: 0, sku: `MUG-BLUE-${t}` },
      { name: 'Red', src: '', price: null, countInStock: null, sku: '' },
    ],
  });
  const [blue, red] = product.colorsVariants;
  expect(blue).toMatchObject({ countInStock: 0, sku: `MUG-BLUE-${t}` });
  expect(red).toMatchObject({ countInStock: null, sku: '' });

  await page.goto(`/product/${product.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
  // before choosing: the product can be bought (Red draws on its stock of 20)
  await expect(stockStatus(page)).toContainText('In Stock');
  const blueButton = page.getByRole('button', { name: 'Blue, out of stock' });
  await expect(blueButton).toBeVisible();
  await expect(blueButton).toContainText('Out of stock');
  await expect(variantButton(page, 'Red')).not.toContainText('Out of stock');

  // the sold-out variant can be looked at, not bought
  await blueButton.click();
  await expect(blueButton).toHaveAttribute('aria-pressed', 'true');
  await expect(stockStatus(page)).toContainText('Out Of Stock');
  await expect(stockStatus(page)).not.toContainText('In Stock');
  await expect(addToCart(page)).toBeDisabled();
  await expect(page.getByLabel('Quantity')).toHaveCount(0);

  // the other one sells from the product's stock
  await variantButton(page, 'Red').click();
  await expect(stockStatus(page)).toContainText('In Stock');
  await expect(stockStatus(page)).not.toContainText('left');
  await expect(addToCart(page)).toBeEnabled();
  await expect(page.getByLabel('Quantity')).toHaveAttribute('max', '20');

  // the cart's own way in refuses the sold-out variant too
  await page.goto(`/cart/${product._id}?qty=1&selectedColorsVariants=${blue!._id}`);
  await expect(page).toHaveURL('/cart');
  await expect(page.getByRole('alert').filter({ hasText: 'out of stock' })).toHaveText(
    `${product.name} (Blue) is out of stock.`,
  );
  await expect(page.locator('.cart-line')).toHaveCount(0);

  // the marked swatch, chosen, is axe-clean in the dark theme
  const dark = await freshPage(browser, { theme: 'dark' });
  await dark.goto(`/product/${product.slug}`);
  await dark.getByRole('button', { name: 'Blue, out of stock' }).click();
  await expect(addToCart(dark)).toBeDisabled();
  expect(await seriousViolations(dark)).toEqual([]);
  await dark.context().close();

  // every variant gone (Red by the product's stock): the card says so
  await updateProduct(request, product._id, { countInStock: 0 });
  await page.goto(`/search/${encodeURIComponent(`Mug ${t}`)}`);
  const card = page.locator('.product-card', { hasText: product.name });
  await expect(card.getByText('Out of stock')).toBeVisible();
  // one variant with its own stock left: buyable, no badge
  await updateProduct(request, product._id, {
    colorsVariants: [{ _id: blue!._id, name: 'Blue', src: '', price: null, countInStock: 4, sku: blue!.sku }],
  });
  await page.reload();
  await expect(card).toBeVisible();
  await expect(card.getByText('Out of stock')).toHaveCount(0);
});

test('buying the last unit of a variant leaves it out of stock, and the product and its other variant not', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const t = tag();
  const product = await makeProduct(request, {
    name: `Vase ${t}`,
    price: 15,
    countInStock: 30,
    colorsVariants: [
      { name: 'Green', src: '', price: 18, countInStock: 1, sku: `VASE-GREEN-${t}` },
      { name: 'White', src: '', price: null, countInStock: null, sku: `VASE-WHITE-${t}` },
    ],
  });
  const green = product.colorsVariants[0]!;

  await page.goto(`/product/${product.slug}`);
  await variantButton(page, 'Green').click();
  await expect(page.getByText('Only 1 left')).toBeVisible();
  const qty = page.getByLabel('Quantity');
  await expect(qty).toHaveAttribute('max', '1');
  await qty.fill('5'); // more than is left: capped
  await expect(qty).toHaveValue('1');
  await addToCart(page).click();

  await expect(page).toHaveURL('/cart');
  const line = page.locator('.cart-line');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Colour: Green');
  const lineQty = page.getByLabel(`Quantity of ${product.name}, Green`);
  await expect(lineQty).toHaveAttribute('max', '1');
  await lineQty.fill('3');
  await expect(lineQty).toHaveValue('1');
  await expect(cartBadge(page)).toHaveText('1');

  // checkout as a guest, as a shopper does
  const email = uniqueEmail('variant');
  await solveCaptcha(page, page.locator('.cart-summary'));
  await page.getByRole('button', { name: 'Checkout As Guest' }).click();
  await expect(page).toHaveURL('/shipping');
  await fillShipping(page, email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/placeorder');
  await page.getByRole('button', { name: 'Place Order' }).click();
  await expect(page).toHaveURL(/\/order\/[0-9a-f]{24}$/);
  await expect(page.getByText('Order placed successfully!')).toBeVisible();

  // the variant's own stock paid for it; the product's stock is untouched
  const after = await getProduct(request, product._id);
  expect(after.colorsVariants.find((v) => v._id === green._id)?.countInStock).toBe(0);
  expect(after.countInStock).toBe(30);

  await page.goto(`/product/${product.slug}`);
  const sold = page.getByRole('button', { name: 'Green, out of stock' });
  await expect(sold).toContainText('Out of stock');
  await sold.click();
  await expect(addToCart(page)).toBeDisabled();
  await variantButton(page, 'White').click();
  await expect(addToCart(page)).toBeEnabled();
  await expect(page.getByLabel('Quantity')).toHaveAttribute('max', '30');

  // one more Green is refused, naming the product and the variant
  const shippingAddress = {
    shipToFirstName: US_ADDRESS.firstName,
    shipToLastName: US_ADDRESS.lastName,
    address1: US_ADDRESS.address1,
    address2: '',
    city: US_ADDRESS.city,
    state: 'DC',
    postalCode: US_ADDRESS.postalCode,
    country: 'US',
    email,
  };
  const again = await page.request.post('/api/orders', {
    data: {
      email,
      shippingAddress,
      paymentMethod: 'PayPal',
      orderItems: [{ product: product._id, qty: 1, selectedColorsVariants: green._id }],
    },
  });
  expect(again.status()).toBe(409);
  const { message } = (await again.json()) as { message: string };
  expect(message).toContain(product.name);
  expect(message).toContain('Green');
});

test('the admin sets a variant stock and SKU in the product editor; the shop follows', async ({ page, request }) => {
  const t = tag();
  const other = await makeProduct(request, {
    name: `Lamp ${t}`,
    price: 5,
    colorsVariants: [{ name: 'Brass', src: '', price: null, countInStock: null, sku: `DUP-${t}` }],
  });
  const product = await makeProduct(request, {
    name: `Bowl ${t}`,
    price: 9,
    countInStock: 40,
    colorsVariants: [{ name: 'Teal', src: '', price: null, countInStock: null, sku: '' }],
  });

  await signInAdmin(page);
  await page.goto(`/admin/product/${product._id}/edit`);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(product.name);
  const stock = page.getByLabel('Variant 1 stock');
  const sku = page.getByLabel('Variant 1 SKU');
  await expect(stock).toHaveValue('');
  await expect(stock).toHaveAttribute('placeholder', 'Product stock: 40');
  await expect(page.getByText("Empty: uses the product's stock")).toBeVisible();

  // the shared rules, shown on the field
  await stock.fill('1.5');
  await sku.fill('has space');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText(PRODUCT_MESSAGES.variantStock)).toBeVisible();
  await expect(page.getByText(PRODUCT_MESSAGES.sku)).toBeVisible();
  await expect(stock).toHaveAttribute('aria-invalid', 'true');

  // a SKU another product has (in another case): the server's refusal, and the field marked
  await stock.fill('3');
  await sku.fill(`dup-${t}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: PRODUCT_MESSAGES.skuTaken(`DUP-${t}`) })).toBeVisible();
  await expect(sku).toHaveAttribute('aria-invalid', 'true');
  expect((await getProduct(request, product._id)).colorsVariants[0]).toMatchObject({ countInStock: null, sku: '' });

  await sku.fill(`BOWL-TEAL-${t}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Product saved successfully.')).toBeVisible();
  const saved = await getProduct(request, product._id);
  expect(saved.colorsVariants[0]).toMatchObject({ name: 'Teal', countInStock: 3, sku: `BOWL-TEAL-${t}` });
  expect(saved.countInStock).toBe(40);
  expect((await getProduct(request, other._id)).colorsVariants[0]?.sku).toBe(`DUP-${t}`);

  // the admin list finds it by the start of its SKU, whatever the case
  await page.goto('/admin/productlist');
  await page
    .getByRole('search', { name: 'Filter products' })
    .getByLabel('SKU')
    .fill(`bowl-teal-${t.toLowerCase()}`.slice(0, -2));
  await expect(page.getByTestId('product-row').getByTestId('product-name')).toHaveText([product.name]);

  // the shop: the variant's own stock
  await page.goto(`/product/${saved.slug}`);
  await variantButton(page, 'Teal').click();
  await expect(page.getByText('Only 3 left')).toBeVisible();
  await expect(page.getByLabel('Quantity')).toHaveAttribute('max', '3');

  // emptied again: it draws on the product's stock
  await page.goto(`/admin/product/${product._id}/edit`);
  await expect(stock).toHaveValue('3');
  await expect(sku).toHaveValue(`BOWL-TEAL-${t}`);
  await stock.fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Product saved successfully.')).toBeVisible();
  expect((await getProduct(request, product._id)).colorsVariants[0]).toMatchObject({
    countInStock: null,
    sku: `BOWL-TEAL-${t}`,
  });
});

test('a huge stock renders the product page quickly, with the quantity capped by what an order takes', async ({
  page,
  request,
}) => {
  const t = tag();
  const product = await makeProduct(request, {
    name: `Pencil ${t}`,
    price: 1,
    countInStock: 100_000,
    colorsVariants: [
      { name: 'Graphite', src: '', price: null, countInStock: null, sku: '' },
      { name: 'Red', src: '', price: null, countInStock: 100_000, sku: `PENCIL-RED-${t}` },
    ],
  });

  const started = Date.now();
  await page.goto(`/product/${product.slug}`);
  await variantButton(page, 'Red').click();
  const qty = page.getByLabel('Quantity');
  await expect(qty).toHaveAttribute('max', '10000');
  expect(Date.now() - started).toBeLessThan(5_000);
  // one input, not an option per unit
  expect(await page.locator('option').count()).toBeLessThan(50);
  await expect(qty).toHaveAttribute('type', 'number');
  await expect(qty).toHaveAttribute('min', '1');

  await qty.fill('250000');
  await expect(qty).toHaveValue('10000');
  await qty.fill('');
  await qty.blur();
  await expect(qty).toHaveValue('10000'); // nothing typed: the last quantity stays
  await qty.fill('12');
  await addToCart(page).click();

  await expect(page).toHaveURL('/cart');
  const lineQty = page.getByLabel(`Quantity of ${product.name}, Red`);
  await expect(lineQty).toHaveValue('12');
  await expect(lineQty).toHaveAttribute('max', '10000');
  expect(await page.locator('option').count()).toBeLessThan(50);
  await lineQty.fill('9999');
  await expect(cartBadge(page)).toHaveText('9999');
});
