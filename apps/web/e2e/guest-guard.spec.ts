import { expect, test } from '@playwright/test';
import { solveCaptcha } from './accounts.ts';

test('a guest on a restricted page has its info cleared and goes to /login?redirect=', async ({ page }) => {
  // a real guest session: a solved captcha, POST /api/users/guest sets the guestToken cookie
  await page.goto('/login');
  await solveCaptcha(page);
  const grecaptcha = await page.locator('input[type="hidden"][name="grecaptcha"]').inputValue();
  expect(grecaptcha.length).toBeGreaterThan(10);
  const res = await page.request.post('/api/users/guest', { data: { grecaptcha } });
  expect(res.status()).toBe(201);
  const guest = (await res.json()) as { isGuest: boolean };
  expect(guest.isGuest).toBe(true);
  await page.evaluate((g) => localStorage.setItem('userInfo', JSON.stringify(g)), guest);

  // allowed pages keep the guest
  await page.goto('/cart');
  await expect(page.getByRole('button', { name: 'GUEST' })).toBeVisible();
  await page.getByRole('button', { name: 'GUEST' }).click();
  await expect(page.getByRole('link', { name: 'Profile' })).toHaveCount(0);

  await page.goto('/profile');
  await expect(page).toHaveURL('/login?redirect=%2Fprofile');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('userInfo'))).toBeNull();

  // the session cookie still restores the guest until logout drops it
  expect((await page.request.get('/api/users/session')).status()).toBe(200);
});

test('signed out: /profile and admin pages send to /login', async ({ page }) => {
  await page.goto('/profile');
  await expect(page).toHaveURL('/login?redirect=%2Fprofile');
  await page.goto('/admin/userlist');
  await expect(page).toHaveURL('/login?redirect=%2Fadmin%2Fuserlist');
});

test('a stale token logs out automatically on "Not authorized, token failed"', async ({ page }) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem(
        'userInfo',
        JSON.stringify({
          _id: '0123456789abcdef01234567',
          username: 'ghost',
          firstName: 'Ghost',
          lastName: 'User',
          email: 'ghost@example.test',
          isAdmin: false,
          isGuest: false,
          token: 'not-a-valid-token',
        }),
      );
      localStorage.setItem('cartItems', '[]');
    }
  });
  await page.goto('/profile');
  // logout goes to /login; the profile guard may add where the visitor was going
  await expect(page).toHaveURL(/\/login(\?redirect=%2Fprofile)?$/);
  expect(await page.evaluate(() => localStorage.getItem('userInfo'))).toBeNull();
});
