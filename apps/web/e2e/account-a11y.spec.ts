import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './accounts.ts';
import { freshPage, seriousViolations } from './helpers.ts';

for (const theme of ['light', 'dark'] as const) {
  for (const width of [375, 1280]) {
    test(`login, register and profile are axe-clean (${theme}, ${width} px)`, async ({ browser }) => {
      const page = await freshPage(browser, { theme, width });
      await page.goto('/login');
      await expect(page.locator('altcha-widget input[type="checkbox"]')).toBeVisible();
      await page.getByLabel('Email Address').fill('not-an-email');
      await expect(page.getByText('Invalid email format')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/register');
      await expect(page.locator('altcha-widget input[type="checkbox"]')).toBeVisible();
      await page.getByLabel('Username').fill('no spaces allowed');
      await expect(page.getByText('Invalid characters')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto('/login?redirect=/profile');
      await signIn(page, ADMIN.email, ADMIN.password);
      await expect(page).toHaveURL('/profile');
      await expect(page.getByLabel('Username')).not.toHaveValue('');
      await expect(page.getByRole('button', { name: 'My Orders' })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByLabel('Current Password')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }
}

test('the sign-in form is keyboard operable with visible focus', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email Address').focus();
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).boxShadow);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
});
