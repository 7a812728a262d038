import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ADMIN, signIn, solveCaptcha, uniqueUser } from './accounts.ts';

/** A fresh (unconfirmed) account through the public API's sign-up, with a captcha solved in the page. */
async function registerViaPage(page: Page, request: APIRequestContext, prefix: string) {
  const user = uniqueUser(prefix);
  await page.goto('/login');
  await solveCaptcha(page);
  const grecaptcha = await page.locator('input[type="hidden"][name="grecaptcha"]').inputValue();
  const res = await request.post('/api/users', {
    data: {
      firstName: user.firstName,
      lastName: user.lastName,
      username: user.username,
      email: user.email,
      password: user.password,
      grecaptcha,
    },
  });
  expect(res.status()).toBe(201);
  return user;
}

test('admin signs in, filters users, edits one and deletes one', async ({ page, request }) => {
  const a = await registerViaPage(page, request, 'adm_edit');
  const b = await registerViaPage(page, request, 'adm_del');

  // signed out, an admin page sends to sign-in, which comes back to it
  await page.goto('/admin/userlist');
  await expect(page).toHaveURL('/login?redirect=%2Fadmin%2Fuserlist');

  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/admin/userlist');
  await page.getByRole('button', { name: 'Admin' }).click();
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page).toHaveURL('/admin/userlist');
  const filters = page.getByRole('search', { name: 'Filter users' });
  await expect(page.getByTestId('total-users')).toContainText(/Total Users\s*\d+/);
  await expect(page.getByTestId('showing')).toContainText(/Showing \d+ of \d+/);

  // filter by username: only the first one is left
  await filters.getByLabel('Username').fill(a.username);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(page.getByTestId('showing')).toHaveText('Showing 1 of 1');
  await filters.getByLabel('Username').fill('');
  await filters.getByLabel('Email').fill(b.email);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await filters.getByLabel('Email').fill('');
  await filters.getByLabel('Admin').selectOption('true');
  await expect(page.getByTestId('user-row').filter({ hasText: ADMIN.email })).toHaveCount(1);
  await expect(page.getByTestId('user-row').filter({ hasText: a.email })).toHaveCount(0);
  await filters.getByLabel('Admin').selectOption('');

  // edit the first: new name, active (it was unconfirmed)
  await filters.getByLabel('Username').fill(a.username);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await page.getByRole('link', { name: `Edit ${a.username}` }).click();
  await expect(page).toHaveURL(/\/admin\/user\/[0-9a-f]{24}\/edit$/);
  await expect(page.getByLabel('Email Address')).toHaveValue(a.email);
  await page.getByLabel('First Name').fill('');
  await expect(page.getByText('First name required')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  await page.getByLabel('First Name').fill('Grace');
  await page.getByLabel('Is Active').check();
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page).toHaveURL('/admin/userlist');
  await filters.getByLabel('Username').fill(a.username);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(page.getByTestId('user-row')).toContainText('Grace');

  // delete the second, after a confirmation naming it: cancelled, nothing happens; confirmed, a toast says so
  await filters.getByLabel('Username').fill(b.username);
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await page.getByRole('button', { name: `Delete ${b.username}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete user ${b.username}?` });
  await expect(confirm).toContainText(b.email);
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await page.getByRole('button', { name: `Delete ${b.username}` }).click();
  await page
    .getByRole('dialog', { name: `Delete user ${b.username}?` })
    .getByRole('button', { name: 'Delete user' })
    .click();
  await expect(page.locator('.toast').filter({ hasText: `${b.username} was deleted.` })).toBeVisible();
  await expect(page.getByTestId('user-row')).toHaveCount(0);
  await expect(page.getByTestId('showing')).toHaveText('Showing 0 of 0');
});

test('the admin sorts users by a column; the sort and the page stay in the address', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/');
  await page.goto('/admin/userlist');
  const header = page.getByRole('columnheader', { name: /USERNAME/ });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sortBy=username&order=asc/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const names = () =>
    page
      .getByTestId('user-row')
      .evaluateAll((trs) => trs.map((tr) => tr.querySelector('td:nth-child(3)')!.textContent!));
  await expect
    .poll(async () => {
      const shown = await names();
      return shown.length > 1 && shown.every((n, i) => i === 0 || shown[i - 1]!.toLowerCase() <= n.toLowerCase());
    })
    .toBe(true);
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/sortBy=username&order=desc/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await page.reload();
  await expect(page.getByRole('columnheader', { name: /USERNAME/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByLabel('Sort by')).toHaveValue('username:desc');
});

test('the admin user list becomes cards at 991 px', async ({ page }) => {
  await page.setViewportSize({ width: 991, height: 900 });
  await page.goto('/login');
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL('/');
  await page.goto('/admin/userlist');
  await expect(page.getByTestId('user-card').first()).toBeVisible();
  await expect(page.getByTestId('user-row').first()).toBeHidden();
  await page.setViewportSize({ width: 1200, height: 900 });
  await expect(page.getByTestId('user-row').first()).toBeVisible();
});
