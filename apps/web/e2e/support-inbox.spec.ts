import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, registerAndConfirm, signIn, solveCaptcha, uniqueUser, waitForMail } from './accounts.ts';
import { freshPage } from './helpers.ts';

// registers, confirms and signs in a shopper and the admin: more than the default 45 s on a slow machine
test.describe.configure({ timeout: 120_000 });

async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('support answers a shopper from the inbox; the shopper sees the badge and an e-mail, and reading clears it', async ({
  browser,
}) => {
  // a shopper writes to support
  const user = await freshPage(browser);
  const shopper = uniqueUser('inbox');
  await registerAndConfirm(user, shopper);
  await user.goto('/login');
  await signIn(user, shopper.email, shopper.password);
  await expect(user).toHaveURL('/');
  await user.goto('/contactsupport');
  const question = `Where is my lamp? ${Date.now()}`;
  await user.getByRole('textbox', { name: 'Message' }).fill(question);
  await solveCaptcha(user);
  await user.getByRole('button', { name: 'Send', exact: true }).click();
  await user.getByRole('button', { name: 'Yes, send' }).click();
  await expect(user.getByRole('log', { name: 'Conversation' })).toContainText(question);

  // the admin sees the waiting conversation in the Admin menu and opens the inbox from it
  const admin = await freshPage(browser);
  await admin.goto('/login');
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL('/');
  const adminMenu = admin.locator('#admin-menu');
  await expect(adminMenu).toHaveAccessibleName(/^Admin \d+ unread support conversations$/);
  await adminMenu.click();
  const supportEntry = admin.getByRole('link', { name: /^Support/ });
  await expect(supportEntry.getByTestId('inbox-unread-count')).toHaveText(/\d+/);
  await supportEntry.click();
  await expect(admin).toHaveURL('/admin/support');
  await expect(admin.getByRole('heading', { level: 1, name: 'Support Inbox' })).toBeVisible();

  // newest first: this shopper's conversation is on top, unread, with their name and message
  const items = admin.getByTestId('inbox-item');
  const mine = items.first();
  await expect(mine).toContainText(`${shopper.firstName} ${shopper.lastName}`);
  await expect(mine).toContainText(shopper.email);
  await expect(mine).toContainText(question);
  await expect(mine.getByTestId('inbox-unread')).toHaveText(/^1/);
  await axe(admin);

  // open it: it is read (the unread mark goes), and the answer goes out with a toast
  await mine.click();
  await expect(admin).toHaveURL(/\/admin\/support\?c=/);
  await expect(
    admin.getByRole('heading', { level: 2, name: `${shopper.firstName} ${shopper.lastName}` }),
  ).toBeVisible();
  await expect(admin.getByRole('log', { name: 'Conversation' })).toContainText(question);
  await expect(mine.getByTestId('inbox-unread')).toHaveCount(0);
  const answer = 'Your lamp ships tomorrow.';
  await admin.getByLabel('Reply', { exact: true }).fill(answer);
  await admin.getByRole('button', { name: 'Send reply' }).click();
  const toast = admin.locator('.toast').filter({ hasText: 'Reply sent' });
  await expect(toast).toBeVisible();
  await expect(admin.getByRole('log', { name: 'Conversation' })).toContainText(answer);
  await expect(mine).toContainText(`You: ${answer}`);
  // (the shared toast's own contrast is checked where it is made)
  await expect(toast).toBeHidden({ timeout: 6000 });
  await axe(admin);

  // the shopper: an e-mail says a reply is waiting, and the header's menu shows the badge
  const mail = await waitForMail(shopper.email, /Support replied to your message/);
  expect(mail.text).toContain('/contactsupport');
  await user.goto('/');
  const account = user.locator('#account-menu');
  await expect(account).toHaveAccessibleName(/1 unread support replies/);
  await account.click();
  const contactSupport = user.getByRole('link', { name: /^Contact Support/ });
  await expect(contactSupport.getByTestId('support-unread')).toHaveText('1 unread');
  await contactSupport.click();
  await expect(user.getByRole('log', { name: 'Conversation' })).toContainText(answer);
  // read: the badge goes
  await expect(account).not.toHaveAccessibleName(/unread/);
  await account.click();
  await expect(user.getByRole('link', { name: /^Contact Support/ }).getByTestId('support-unread')).toHaveCount(0);

  await user.context().close();
  await admin.context().close();
});
