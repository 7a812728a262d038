import { expect, test, type Page } from '@playwright/test';

const signIn = (page: Page, user: Record<string, unknown>) =>
  page.addInitScript((u) => localStorage.setItem('userInfo', JSON.stringify(u)), user);

const base = {
  _id: '0123456789abcdef01234567',
  username: 'jane',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
};

test('signed out: a Sign In link and no account or admin menu', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('button', { name: 'Admin' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL('/contact');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Us');
});

test('a registered user gets Profile, Contact Support and Logout', async ({ page }) => {
  await signIn(page, { ...base, isAdmin: false, isGuest: false, token: 'x' });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Jane' }).click();
  await expect(page.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
  await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/contactsupport');
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('userInfo'))).toBeNull();
});

test('a guest is shown as GUEST with Logout only', async ({ page }) => {
  await signIn(page, { ...base, isAdmin: false, isGuest: true });
  await page.goto('/');
  await page.getByRole('button', { name: 'GUEST' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Profile' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveCount(0);
});

test('an admin gets the Admin menu and an Edit link on product pages', async ({ page, request }) => {
  await signIn(page, { ...base, isAdmin: true, isGuest: false, token: 'x' });
  const [product] = (await (await request.get('/api/products/top')).json()) as { _id: string; slug: string }[];
  await page.goto(`/product/${product!.slug}`);
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/admin/product/${product!._id}/edit`);
  await page.getByRole('button', { name: 'Admin' }).click();
  await expect(page.getByRole('link', { name: 'Users' })).toHaveAttribute('href', '/admin/userlist');
  await expect(page.getByRole('link', { name: 'Products' })).toHaveAttribute('href', '/admin/productlist');
  await expect(page.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/admin/orderlist');
});
