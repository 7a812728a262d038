import { expect, test } from '@playwright/test';

test('the dark theme survives a reload, and so does going back to light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-bs-theme', 'light');
  const toggle = page.getByRole('switch', { name: 'Light' });
  await expect(toggle).not.toBeChecked();

  await toggle.check();
  await expect(html).toHaveAttribute('data-bs-theme', 'dark');
  await expect(page.getByRole('switch', { name: 'Dark' })).toBeChecked();
  await page.reload();
  await expect(html).toHaveAttribute('data-bs-theme', 'dark');
  await expect(page.getByRole('switch', { name: 'Dark' })).toBeChecked();

  await page.getByRole('switch', { name: 'Dark' }).uncheck();
  await page.reload();
  await expect(html).toHaveAttribute('data-bs-theme', 'light');
});

test('without a saved choice the theme follows the system, before the app starts', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  // the inline script must have applied it when the document is parsed, before any module runs
  await page.route('**/assets/*.js', (route) => route.abort());
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
});
