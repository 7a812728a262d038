import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, registerAndConfirm, signIn, solveCaptcha, uniqueUser, waitForMail } from './accounts.ts';
import { freshPage, plainProduct } from './helpers.ts';

/** Registers through the form, confirms through the mailed link and signs in; answers the signed-in page. */
async function newShopper(
  browser: Browser,
  prefix: string,
  opts: Parameters<typeof freshPage>[1] = {},
): Promise<{ page: Page; username: string }> {
  const page = await freshPage(browser, opts);
  const user = uniqueUser(prefix);
  await registerAndConfirm(page, user);
  await page.goto('/login');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL('/');
  return { page, username: user.username };
}

// each journey registers, confirms and signs in one or two people: more than the default 45 s on a slow machine
test.describe.configure({ timeout: 120_000 });

async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('a signed-in shopper reviews a product and sees it listed', async ({ browser, request }) => {
  const product = await plainProduct(request, 1);
  const visitor = await freshPage(browser);
  await visitor.goto(`/product/${product._id}`);
  await expect(visitor.getByText('to write a review')).toBeVisible();
  await expect(visitor.getByLabel('Rating')).toHaveCount(0);
  await visitor.context().close();

  const { page } = await newShopper(browser, 'rev');
  await page.goto(`/product/${product._id}`);
  const form = page.getByRole('form', { name: 'Write a customer review' });
  await expect(form).toBeVisible();
  const labels = await page.getByLabel('Rating').locator('option').allTextContents();
  expect(labels.slice(1)).toEqual(['1 - Poor', '2 - Fair', '3 - Good', '4 - Very Good', '5 - Excellent']);
  await axe(page);
  // no rating: the rule's message
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Please select a rating')).toBeVisible();
  const comment = `Lovely thing ${Date.now()}`;
  await page.getByLabel('Rating').selectOption('4');
  await page.getByLabel('Comment').fill(comment);
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Review submitted successfully')).toBeVisible();
  await expect(page.getByLabel('Comment')).toHaveValue('');
  await expect(page.getByLabel('Rating')).toHaveValue('');
  await expect(page.locator('.review-list')).toContainText(comment);
  // a second review of the same product: the server's message in a red alert
  await page.getByLabel('Rating').selectOption('5');
  await page.getByLabel('Comment').fill('again');
  await form.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert')).toHaveText('Product already reviewed');
  await expect(page.getByText('Review submitted successfully')).toHaveCount(0);
  await page.context().close();
});

test('a visitor sends a contact message; the admin sees it and answers by e-mail', async ({ browser }) => {
  const page = await freshPage(browser, { width: 375, height: 800, theme: 'dark' });
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  await axe(page);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('All fields are required').first()).toBeVisible();
  const email = `visitor.${Date.now().toString(36)}@example.test`;
  await page.getByLabel('Name').fill('Vera Visitor');
  await page.getByLabel('Email').fill('nope');
  await page.getByLabel('Subject').fill('<b>hi</b>');
  await expect(page.getByText('2,500 of 2,500 characters left')).toBeVisible();
  await page.getByRole('textbox', { name: 'Message' }).fill('Where is\nmy parcel?');
  // the form says how much more it takes (the server refuses, never cuts, a longer message)
  await expect(page.getByText('2,481 of 2,500 characters left')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveAttribute('maxlength', '2500');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await expect(page.getByText('HTML/script not allowed')).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').fill('Parcel question');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByText('Your message has been sent')).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');
  await waitForMail(ADMIN.email, /New contact message: Parcel question/);
  await page.context().close();

  const admin = await freshPage(browser);
  await admin.goto('/login?redirect=/contactSupport');
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(/\/contactSupport$/);
  const search = admin.getByRole('combobox', { name: 'Recipient' });
  await search.fill(email.slice(0, 12));
  await expect(admin.getByRole('option').first()).toContainText(email);
  await search.press('ArrowDown');
  await search.press('Enter');
  await expect(search).toHaveValue(new RegExp(email.replace(/\./g, '\\.')));
  const log = admin.getByRole('log', { name: 'Conversation' });
  await expect(log).toContainText('Where is my parcel?');
  await admin.getByRole('textbox', { name: 'Message' }).fill('It is on its way.');
  await admin.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(admin.getByText('Are you sure you want to send this message?')).toBeVisible();
  await admin.getByRole('button', { name: 'Yes, send' }).click();
  await expect(log).toContainText('It is on its way.');
  const reply = await waitForMail(email, /Re: Parcel question/);
  expect(reply.text).toContain('It is on its way.');
  await admin.context().close();
});

test('a user and an admin exchange support messages', async ({ browser }) => {
  // the user at 375 px in the dark theme, the admin on a desktop in the light one
  const { page: user, username } = await newShopper(browser, 'sup', { width: 375, height: 800, theme: 'dark' });
  await user.goto('/contactsupport');
  await expect(user.getByRole('heading', { level: 1, name: 'Contact Support' })).toBeVisible();
  await expect(user.getByRole('combobox')).toHaveCount(0);
  await user.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(user.getByRole('alert')).toHaveText('Message cannot be empty.');
  await user.getByRole('textbox', { name: 'Message' }).fill('Hello support, my order is late.');
  await solveCaptcha(user);
  await user.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(user.getByRole('dialog')).toContainText('Are you sure you want to send this message?');
  await axe(user);
  await user.getByRole('button', { name: 'Yes, send' }).click();
  const userLog = user.getByRole('log', { name: 'Conversation' });
  await expect(userLog).toContainText('Hello support, my order is late.');
  await expect(userLog).toHaveCSS('max-height', '400px');

  const admin = await freshPage(browser);
  await admin.goto('/login?redirect=/contactsupport');
  await signIn(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(/\/contactsupport$/);
  // no recipient picked: the admin is told to pick one from the list
  await admin.getByRole('textbox', { name: 'Message' }).fill('Hi!');
  await admin.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(admin.getByText('Select a valid recipient from the list.')).toBeVisible();
  const search = admin.getByRole('combobox', { name: 'Recipient' });
  await search.fill(username);
  await admin.getByRole('option', { name: new RegExp(username) }).click();
  const adminLog = admin.getByRole('log', { name: 'Conversation' });
  await expect(adminLog).toContainText('Hello support, my order is late.');
  await admin.getByRole('textbox', { name: 'Message' }).fill('We are on it, sorry for the wait.');
  await admin.getByRole('button', { name: 'Send', exact: true }).click();
  await admin.getByRole('button', { name: 'Yes, send' }).click();
  await expect(adminLog).toContainText('We are on it, sorry for the wait.');
  await axe(admin);

  await user.reload();
  await expect(user.getByRole('log', { name: 'Conversation' })).toContainText('We are on it, sorry for the wait.');
  await user.context().close();
  await admin.context().close();
});
