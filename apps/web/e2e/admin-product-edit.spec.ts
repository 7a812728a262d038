import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { Product } from '@store/shared';
import sharp from 'sharp';
import { signInAdmin } from './accounts.ts';
import { formatMoney, freshPage, getProduct, seriousViolations } from './helpers.ts';

/** A small real image (each colour gives other bytes, so another stored file). */
async function image(name: string, rgb: [number, number, number], format: 'png' | 'jpeg' = 'png') {
  const [r, g, b] = rgb;
  const img = sharp({ create: { width: 48, height: 36, channels: 3, background: { r, g, b } } });
  const buffer = await (format === 'png' ? img.png() : img.jpeg()).toBuffer();
  return { name, mimeType: format === 'png' ? 'image/png' : 'image/jpeg', buffer };
}

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** POST /api/products as the admin: a draft (the product list page is another spec). */
async function createProduct(request: APIRequestContext, token: string): Promise<Product> {
  const res = await request.post('/api/products', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(201);
  const product = (await res.json()) as Product;
  expect(product.status).toBe('draft');
  return product;
}

/** The product as the admin reads it (drafts too). */
async function adminProduct(request: APIRequestContext, token: string, id: string): Promise<Product> {
  const res = await request.get(`/api/admin/products/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as Product;
}

async function openEditPage(page: Page, product: Product) {
  await page.goto(`/admin/product/${product._id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit Product', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(product.name);
  await expect(page.getByTestId('description-editor')).toBeVisible();
}

/** The admin signed in, on the edit page of a new product. */
async function editNewProduct(page: Page, request: APIRequestContext) {
  const token = await signInAdmin(page);
  const product = await createProduct(request, token);
  await openEditPage(page, product);
  return { token, product };
}

const uploadStatus = (page: Page) => page.getByRole('dialog', { name: 'Upload Status' });

test('admin edits a product with uploads, gallery, a variant and rich text; the storefront shows it', async ({
  page,
  request,
}) => {
  const { product } = await editNewProduct(page, request);

  const t = tag();
  const name = `Desk Lamp ${t}`;
  const folder = `e2e-${t}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Price').fill('20');
  await page.getByLabel('Count In Stock').fill('7');
  await page.getByLabel('Brand').fill('Lumen');
  await page.getByLabel('Image Gallery Folder Name').fill(folder);

  // two real images: one progress bar each, both complete
  await page
    .getByLabel('Upload Images')
    .setInputFiles([await image('red.png', [220, 30, 40]), await image('blue.jpg', [30, 60, 220], 'jpeg')]);
  const status = uploadStatus(page);
  await expect(status).toBeVisible();
  await expect(status.getByTestId('upload-row')).toHaveCount(2);
  await expect(status.getByRole('progressbar', { name: 'Upload of red.png' })).toHaveAttribute('aria-valuenow', '100');
  await expect(status.getByRole('progressbar', { name: 'Upload of blue.jpg' })).toHaveAttribute('aria-valuenow', '100');
  await expect(status.getByTestId('upload-row-status')).toHaveText(['Done', 'Done']);
  await expect(status).toContainText(`Uploaded 2 image(s) to ${folder}.`);

  // the uploads joined the product at once: the gallery list in upload order, the first as the main image
  const listed = page.getByTestId('gallery-list-item');
  await expect(listed).toHaveCount(2);
  await expect(listed.nth(0)).toHaveAttribute('data-src', /\/red-[0-9a-f]{12}\.webp$/);
  await expect(listed.nth(1)).toHaveAttribute('data-src', /\/blue-[0-9a-f]{12}\.webp$/);
  await expect(page.getByRole('textbox', { name: 'Main Image' })).toHaveValue(/\/red-[0-9a-f]{12}\.webp$/);
  await status.getByRole('button', { name: 'Open Gallery' }).click();
  const gallery = page.getByRole('dialog', { name: /Image Gallery/ });
  await expect(gallery.getByTestId('gallery-item')).toHaveCount(2);
  await expect(gallery.getByRole('button', { name: /^In gallery list/ })).toHaveCount(2);
  await gallery.getByRole('button', { name: 'Close' }).last().click();
  await expect(gallery).toBeHidden();

  // reordered by dragging, then back with the keyboard's arrow buttons, then blue first again
  await listed.nth(1).dragTo(listed.nth(0));
  await expect(listed.nth(0)).toHaveAttribute('data-src', /\/blue-/);
  await listed
    .nth(0)
    .getByRole('button', { name: /^Move blue-.* later$/ })
    .click();
  await expect(listed.nth(0)).toHaveAttribute('data-src', /\/red-/);
  await listed
    .nth(1)
    .getByRole('button', { name: /^Move blue-.* earlier$/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(listed.nth(0)).toHaveAttribute('data-src', /\/blue-/);

  // the main image, picked from the gallery
  await page.getByRole('button', { name: 'Choose Main Image' }).click();
  const mainPicker = page.getByRole('dialog', { name: /Choose the main image/ });
  await mainPicker.getByRole('button', { name: /^Main image red-/ }).click();
  await expect(mainPicker).toBeHidden();
  await expect(page.getByRole('textbox', { name: 'Main Image' })).toHaveValue(
    new RegExp(`^/uploads/${folder}/red-[0-9a-f]{12}\\.webp$`),
  );
  const mainSrc = await page.getByRole('textbox', { name: 'Main Image' }).inputValue();

  // a colour variant with its own price and image
  await page.getByRole('button', { name: 'Add Variant' }).click();
  await page.getByLabel('Variant 1 name').fill('Ocean Blue');
  await page.getByLabel('Variant 1 price (optional)').fill('25.5');
  await page.getByRole('button', { name: 'Choose image for Ocean Blue' }).click();
  const variantPicker = page.getByRole('dialog', { name: /Choose an image for Ocean Blue/ });
  await variantPicker.getByRole('button', { name: /^Use for Ocean Blue blue-/ }).click();
  await expect(variantPicker).toBeHidden();

  // the description in the rich-text editor: new text with a bold part
  const editor = page.getByRole('textbox', { name: 'Description' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('A warm light for late reading. ');
  await page.getByRole('button', { name: 'Bold' }).click();
  await expect(page.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('Dimmable');
  await expect(editor.locator('strong')).toHaveText('Dimmable');

  // a draft until published: 'Publish' puts it in the shop
  await expect(page.getByTestId('product-status')).toHaveText('Draft');
  await page.getByRole('button', { name: 'Publish' }).click();
  const toast = page.getByText('Product published.');
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 6000 });
  await expect(page.getByTestId('product-status')).toHaveText('Active');

  const saved = await getProduct(request, product._id);
  expect(saved.name).toBe(name);
  expect(saved.price).toBe(20);
  expect(saved.countInStock).toBe(7);
  expect(saved.image).toBe(mainSrc);
  expect(saved.imageFolderName).toBe(folder);
  expect(saved.imageB.map((i) => i.src)).toEqual([
    expect.stringMatching(/\/blue-[0-9a-f]{12}\.webp$/),
    expect.stringMatching(/\/red-[0-9a-f]{12}\.webp$/),
  ]);
  expect(saved.description).toContain('<strong>Dimmable</strong>');
  expect(saved.colorsVariants).toEqual([
    expect.objectContaining({
      name: 'Ocean Blue',
      price: 25.5,
      src: expect.stringMatching(/\/blue-[0-9a-f]{12}\.webp$/),
    }),
  ]);

  // the storefront: new name, the image, the variant and its price
  await page.goto(`/product/${saved.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await expect(page.locator('.gallery-main img')).toHaveAttribute('src', mainSrc);
  const price = page.locator('#product-price');
  await expect(price).toContainText(formatMoney(20));
  await page.getByRole('button', { name: /^Ocean Blue\b/ }).click();
  await expect(price).toContainText(formatMoney(25.5));
  await expect(page.locator('.product-description strong')).toHaveText('Dimmable');
});

test('invalid files are skipped, an upload can be canceled, and a bulk delete removes an image', async ({
  page,
  request,
}) => {
  const { token, product } = await editNewProduct(page, request);
  const upload = page.getByLabel('Upload Images');
  const good = await image('good.png', [20, 160, 60]);
  const other = await image('other.png', [200, 200, 20]);
  const fake = { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('just some text, not a picture') };

  // the folder starts as the product's slug; emptied, uploads wait for one
  await expect(page.getByLabel('Image Gallery Folder Name')).toHaveValue(product.slug);
  await page.getByLabel('Image Gallery Folder Name').fill('');
  await upload.setInputFiles([good]);
  await expect(page.getByText('Please set an Image Gallery Folder Name first.')).toBeVisible();
  const folder = `e2e-del-${tag()}`;
  await page.getByLabel('Image Gallery Folder Name').fill(folder);

  // nothing valid: a text file named .png
  await upload.setInputFiles([fake]);
  await expect(page.getByText('Please choose at least one valid file to upload.')).toBeVisible();
  await expect(page.getByText('Only JPG/PNG up to 5MB per file. Skipped 1 invalid file(s).')).toBeVisible();
  await expect(uploadStatus(page)).toBeHidden();

  // two good ones, the fake and one over 5 MB: the two go, the others are skipped and counted in one message
  const big = {
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([good.buffer, Buffer.alloc(5 * 1024 * 1024)]),
  };
  await upload.setInputFiles([good, fake, other, big]);
  const status = uploadStatus(page);
  await expect(status.getByTestId('upload-row')).toHaveCount(2);
  await expect(status).toContainText('Only JPG/PNG up to 5MB per file. Skipped 2 invalid file(s).');
  await expect(status.getByTestId('upload-row-status')).toHaveText(['Done', 'Done']);
  await status.getByRole('button', { name: 'Close' }).last().click();
  await expect(status).toBeHidden();
  await expect(upload).toBeFocused();

  // an upload held by the network is canceled from the modal
  // (the editor's uploads name the product: ?product={id})
  await page.route(new RegExp(`/api/upload/${folder}(\\?|$)`), async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    await new Promise((r) => setTimeout(r, 4000));
    await route.abort().catch(() => undefined);
  });
  await upload.setInputFiles([await image('slow.png', [90, 90, 90])]);
  await expect(status.getByTestId('upload-row')).toHaveCount(1);
  await status.getByRole('button', { name: 'Cancel' }).click();
  await expect(status).toContainText('Upload canceled.');
  await expect(status.getByTestId('upload-row-status')).toHaveText('Canceled');
  await status.getByRole('button', { name: 'Close' }).last().click();
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  // 'good', uploaded first, is already the main image; saved as a draft it stays out of the shop
  await expect(page.getByRole('textbox', { name: 'Main Image' })).toHaveValue(/\/good-[0-9a-f]{12}\.webp$/);
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await expect(page.getByText('Draft saved. Shoppers do not see it until you publish it.')).toBeVisible();
  expect((await adminProduct(request, token, product._id)).image).toMatch(/\/good-[0-9a-f]{12}\.webp$/);
  expect((await request.get(`/api/products/${product._id}`)).status()).toBe(404);

  // delete mode: tick 'good' and delete it; the folder keeps 'other' and the product drops its main image
  await page.getByRole('button', { name: 'Browse Gallery' }).click();
  const gallery = page.getByRole('dialog', { name: /Image Gallery/ });
  await expect(gallery.getByTestId('gallery-item')).toHaveCount(2);
  await gallery.getByLabel('Delete mode').check();
  await gallery.getByRole('checkbox', { name: /^Select good-/ }).check();
  await gallery.getByRole('button', { name: 'Delete selected (1)' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 image?' });
  await expect(confirm).toContainText(/good-[0-9a-f]{12}\.webp/);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(gallery.getByText('Deleted 1 image(s).')).toBeVisible();
  await expect(gallery.getByTestId('gallery-item')).toHaveCount(1);
  await expect(gallery.getByRole('checkbox', { name: /^Select other-/ })).toBeVisible();
  await gallery.getByRole('button', { name: 'Close' }).last().click();
  await expect(page.getByRole('textbox', { name: 'Main Image' })).toHaveValue('');
  expect((await adminProduct(request, token, product._id)).image).toBe('');
  const list = await request.get(`/api/upload/list/${folder}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(((await list.json()) as { src: string }[]).map((i) => i.src)).toEqual([
    expect.stringMatching(/\/other-[0-9a-f]{12}\.webp$/),
  ]);
});

test('a server refusal is shown and the form checks fields with the shared messages', async ({ page, request }) => {
  const { token, product } = await editNewProduct(page, request);
  await page.getByLabel('Name', { exact: true }).fill('');
  await page.getByLabel('Price').fill('12.345');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Name is required')).toBeVisible();
  await expect(page.getByText('Price must be a number from 0 with at most two decimals')).toBeVisible();
  await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  // publishing needs a real name and a price above 0: the server says so and the product stays a draft
  await page.getByLabel('Name', { exact: true }).fill('Sample name');
  await page.getByLabel('Price').fill('0');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(
    page.getByRole('alert').filter({
      hasText: "Give the product a real name (not 'Sample name') and a price above 0 before publishing",
    }),
  ).toBeVisible();
  await expect(page.getByTestId('product-status')).toHaveText('Draft');
  expect((await adminProduct(request, token, product._id)).status).toBe('draft');
  await page.getByLabel('Name', { exact: true }).fill('Valid name');
  await page.getByLabel('Price').fill('12.34');
  // a product removed meanwhile: the server's 404 message is shown
  await request.delete(`/api/products/${product._id}`, { headers: { Authorization: `Bearer ${token}` } });
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Product not found' })).toBeVisible();
});

test('the edit page and its modals are axe-clean in dark theme at 375 px', async ({ browser }) => {
  const page = await freshPage(browser, { theme: 'dark', width: 375, height: 800 });
  const token = await signInAdmin(page);
  const product = await createProduct(page.request, token);
  const folder = `e2e-a11y-${tag()}`;
  const up = await page.request.post(`/api/upload/${folder}`, {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { files: await image('pic.png', [120, 40, 160]) },
  });
  expect(up.ok()).toBe(true);
  await openEditPage(page, product);
  await page.getByLabel('Image Gallery Folder Name').fill(folder);
  await page.getByRole('button', { name: 'Add Variant' }).click();
  expect(await seriousViolations(page)).toEqual([]);
  // nothing wider than the phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  await page.getByRole('button', { name: 'Browse Gallery' }).click();
  const gallery = page.getByRole('dialog', { name: /Image Gallery/ });
  await expect(gallery.getByTestId('gallery-item')).toHaveCount(1);
  await gallery.getByLabel('Delete mode').check();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(gallery).toBeHidden();
  await expect(page.getByRole('button', { name: 'Browse Gallery' })).toBeFocused();

  await page.getByLabel('Upload Images').setInputFiles([await image('pic2.png', [10, 200, 200])]);
  await expect(uploadStatus(page).getByTestId('upload-row-status')).toHaveText('Done');
  expect(await seriousViolations(page)).toEqual([]);
  await page.context().close();
});

test('shoppers never download the rich-text editor; the edit page does', async ({ page, request }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  const editorChunk = /RichTextEditor|tiptap|prosemirror/i;
  await page.goto('/');
  await expect(page.locator('.product-card').first()).toBeVisible();
  const someProduct = (await (await request.get('/api/products/top')).json()) as { slug: string }[];
  await page.goto(`/product/${someProduct[0]!.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((u) => editorChunk.test(u))).toEqual([]);

  await editNewProduct(page, request);
  expect(scripts.filter((u) => /RichTextEditor-[\w-]+\.js$/.test(u))).toHaveLength(1);
});
