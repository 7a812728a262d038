import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { guestOrderViaApi, startGuest, uniqueEmail } from './checkout.ts';
import { allProducts, freshPage, plainProduct } from './helpers.ts';

test.describe.configure({ timeout: 90_000 });

const html = (page: Page) => page.locator('html');
const stored = (page: Page, key: string) =>
  page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null') as unknown, key);

/** Contrast ratio (WCAG) of two CSS colours as getComputedStyle writes them. */
async function focusRing(el: Locator, background: Locator) {
  return el.page().evaluate(
    ([target, bg]) => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) => {
        const [r, g, b] = rgb(c).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      };
      const style = getComputedStyle(target!);
      const a = lum(style.outlineColor);
      const b = lum(getComputedStyle(bg!).backgroundColor);
      return {
        focused: document.activeElement === target,
        color: style.outlineColor,
        style: style.outlineStyle,
        width: parseFloat(style.outlineWidth),
        contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
      };
    },
    [await el.elementHandle(), await background.elementHandle()],
  );
}

test('a failed request shows the screen’s own words, and a dropped connection a notice', async ({ page }) => {
  await startGuest(page);
  // the server answers nothing useful: the spec's text, not "Request failed (500)"
  await page.route('**/api/shipping/shippingaddress', (route) => route.fulfill({ status: 500, body: '' }));
  await page.goto('/shipping');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('Email').fill(uniqueEmail('fail'));
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('Address 1').fill('1 Main St');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('State').selectOption('IL');
  await page.getByLabel('Postal Code').fill('62701');
  await page.getByRole('button', { name: 'Continue' }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Address Error' });
  await expect(toast).toContainText('Address validation failed');

  // no answer at all (the network is down): the same words, never the browser's "Failed to fetch"
  await page.goto(`/order/${'a'.repeat(24)}`);
  await page.route('**/api/orders/**', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByText('Failed to load order')).toBeVisible();
  await expect(page.getByText('Failed to fetch')).toHaveCount(0);

  const notice = page.getByRole('status').filter({ hasText: "You're offline" });
  await expect(notice).toHaveCount(0);
  await page.context().setOffline(true);
  await expect(notice).toBeVisible();
  await page.context().setOffline(false);
  await expect(notice).toHaveCount(0);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('a toast hides neither the header nor the page title', async ({ page }) => {
    await startGuest(page);
    await page.route('**/api/shipping/shippingaddress', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/shipping');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('Email').fill(uniqueEmail('toast'));
    await page.getByLabel('First Name').fill('Ada');
    await page.getByLabel('Last Name').fill('Lovelace');
    await page.getByLabel('Address 1').fill('1 Main St');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('State').selectOption('IL');
    await page.getByLabel('Postal Code').fill('62701');
    await page.getByRole('button', { name: 'Continue' }).click();
    const toast = page.locator('.toast').filter({ hasText: 'Address Error' });
    await expect(toast).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    const t = (await toast.boundingBox())!;
    const header = (await page.locator('.site-navbar').boundingBox())!;
    const title = (await page.getByRole('heading', { name: 'Shipping', level: 1 }).boundingBox())!;
    const overlaps = (a: typeof t, b: typeof t) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps(t, header)).toBe(false);
    expect(overlaps(t, title)).toBe(false);
    expect(t.x + t.width).toBeLessThanOrEqual(375);
  });
});

test('any country can be chosen: its ISO code is stored and its name shown; the suggestion or what I typed', async ({
  page,
}) => {
  await startGuest(page);
  await page.goto('/shipping');
  await expect(page.getByLabel('Country')).toBeVisible();
  // the country comes first, and decides whether the state is a list
  const fields = await page
    .locator('form[aria-label="Shipping address"] .row')
    .first()
    .locator('label')
    .allTextContents();
  expect(fields[0]).toBe('Country');
  await page.getByLabel('Country').selectOption('US');
  await expect(page.getByLabel('State').locator('option[value="NY"]')).toHaveText('New York (NY)');
  await page.getByLabel('Country').selectOption({ label: 'Germany' });
  await expect(page.getByLabel('Country').locator('option', { hasText: /^Other$/ })).toHaveCount(0);
  await expect(page.getByLabel('State')).toHaveJSProperty('tagName', 'INPUT');

  await page.getByLabel('Email').fill(uniqueEmail('de'));
  await page.getByLabel('First Name').fill('Karl');
  await page.getByLabel('Last Name').fill('Weber');
  await page.getByLabel('Address 1').fill('unter den linden 77');
  await page.getByLabel('City').fill('BERLIN');
  await page.getByLabel('State').fill('berlin');
  await page.getByLabel('Postal Code').fill('10117');
  await page.getByRole('button', { name: 'Continue' }).click();
  const modal = page.getByRole('dialog', { name: 'Select Shipping Address' });
  await expect(modal.getByTestId('suggested-address')).toContainText('Unter Den Linden 77');
  await expect(modal.getByTestId('suggested-address')).toContainText('Berlin, Berlin 10117, Germany');
  await expect(modal.getByRole('radio', { name: /Suggested address/ })).toBeChecked();
  await modal.getByRole('radio', { name: /Keep what I entered/ }).check();
  await expect(modal.getByTestId('entered-address')).toContainText('Unter Den Linden 77');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL('/payment');
  expect(await stored(page, 'shippingAddress')).toMatchObject({
    country: 'DE',
    city: 'Berlin',
    state: 'Berlin',
    address1: 'Unter Den Linden 77',
  });
});

test('the main product image opens a preview on click and on a long press', async ({ page, request }) => {
  const product = await plainProduct(request);
  await page.goto(`/product/${product.slug}`);
  const zoom = page.getByRole('button', { name: /^Enlarge / });
  const preview = page.getByRole('dialog');

  await zoom.click();
  await expect(preview).toBeVisible();
  await expect(preview.getByTestId('image-preview')).toHaveAttribute('src', product.image);
  await preview.getByRole('button', { name: 'Zoom in' }).click();
  await expect(preview.getByRole('button', { name: 'Zoom out' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // a long press (touch or mouse; both are pointer events) opens it too, for an image of no variant
  const box = (await zoom.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await expect(preview).toBeVisible({ timeout: 2000 });
  await page.mouse.up();
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
});

test('the pages an e-mail link opens are light before the app starts, and the saved theme comes back', async ({
  browser,
}) => {
  const page = await freshPage(browser, { theme: 'dark' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/user/confirm/not-a-real-token');
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'light');
  await page.unroute('**/assets/*.js');
  await page.goto('/');
  await expect(html(page)).toHaveAttribute('data-bs-theme', 'dark');
  await page.context().close();
});

test('the products viewed last show in the empty cart, newest first', async ({ page, request }) => {
  const [a, b] = (await allProducts(request)).slice(0, 2);
  await page.goto(`/product/${a!.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto(`/product/${b!.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(((await stored(page, 'recentlyViewed')) as { _id: string }[])[0]?._id).toBe(b!._id);

  await page.goto('/cart');
  const row = page.getByRole('region', { name: 'Recently viewed' });
  const links = row.getByRole('link');
  await expect(links).toHaveCount(2);
  await expect(links.first()).toContainText(b!.name);
  await links.nth(1).click();
  await expect(page).toHaveURL(`/product/${a!.slug}`);
});

for (const theme of ['light', 'dark'] as const) {
  test(`keyboard focus is a ring of at least 3:1 contrast in the ${theme} theme`, async ({ browser }) => {
    const page = await freshPage(browser, { theme });
    await page.goto('/');
    await expect(page.locator('.top-carousel .carousel-control-next')).toBeVisible();
    const navbar = page.locator('.site-navbar');
    for (const name of ['Sign In', /^Cart/]) {
      const link = page.getByRole('link', { name, exact: typeof name === 'string' }).first();
      for (let i = 0; i < 12 && !(await link.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab');
      const ring = await focusRing(link, navbar);
      expect(ring.focused).toBe(true);
      expect(ring.style).toBe('solid');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      expect(ring.contrast).toBeGreaterThanOrEqual(3);
    }
    // the carousel arrows on their blue band (#0a2a5e to #0b5ed7): a white ring, 5.3:1 against the lighter end
    const next = page.locator('.top-carousel .carousel-control-next');
    await next.focus();
    const ring = await focusRing(next, page.locator('.top-carousel'));
    expect(ring.style).toBe('solid');
    expect(ring.width).toBeGreaterThanOrEqual(2);
    expect(ring.color).toBe('rgb(255, 255, 255)');
    await page.context().close();
  });
}

test('a signed-out visitor opening an order is offered to sign in, and comes back to the order', async ({
  browser,
  request,
}) => {
  const product = await plainProduct(request, 2);
  const owner = await freshPage(browser);
  await startGuest(owner);
  const order = await guestOrderViaApi(owner, product._id, uniqueEmail('signin'));
  await owner.context().close();

  const page = await freshPage(browser);
  await page.goto(`/order/${order._id}`);
  await expect(page.getByRole('heading', { name: 'Sign in to see this order' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign In', exact: true }).last().click();
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(`/order/${order._id}`)}`);
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(`/order/${order._id}`);
  await expect(page.getByRole('heading', { level: 1, name: /^Order #\d+/ })).toBeVisible();
  await expect(page.getByText(order._id)).toBeVisible();
  await page.context().close();
});
