import { expect, type Page } from '@playwright/test';
import type { Order } from '@store/shared';
import { solveCaptcha } from './accounts.ts';

/** A US address the built-in validation accepts (state and ZIP get normalised). */
export const US_ADDRESS = {
  firstName: 'Grace',
  lastName: 'Hopper',
  address1: '1600 Pennsylvania Ave NW',
  city: 'Washington',
  state: 'dc',
  postalCode: '20500',
  country: 'US',
};

export const uniqueEmail = (prefix: string) =>
  `${prefix}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.test`;

/** Fills /shipping, continues, and saves the suggested address; ends on /payment. */
export async function fillShipping(page: Page, email?: string) {
  if (email !== undefined) await page.getByLabel('Email').fill(email);
  // the country comes first: the state is a select of the US states
  await page.getByLabel('Country').selectOption(US_ADDRESS.country);
  await page.getByLabel('First Name').fill(US_ADDRESS.firstName);
  await page.getByLabel('Last Name').fill(US_ADDRESS.lastName);
  await page.getByLabel('Address 1').fill(US_ADDRESS.address1);
  await page.getByLabel('City').fill(US_ADDRESS.city);
  await page.getByLabel('State').selectOption(US_ADDRESS.state.toUpperCase());
  await page.getByLabel('Postal Code').fill(US_ADDRESS.postalCode);
  await page.getByRole('button', { name: 'Continue' }).click();
  const modal = page.getByRole('dialog', { name: 'Select Shipping Address' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('radio', { name: /Suggested address/ })).toBeChecked();
  await expect(modal.getByTestId('suggested-address')).toContainText('Washington, DC 20500');
  await modal.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL('/payment');
  // the payment page is a lazy chunk: until it renders, the shipping form (with its own Continue) stays up
  await expect(page.getByRole('heading', { name: 'Payment Method' })).toBeVisible();
}

/** A guest session made the way the cart makes one (real captcha), stored as the page's user. */
export async function startGuest(page: Page) {
  await page.goto('/login');
  await solveCaptcha(page);
  const grecaptcha = await page.locator('input[type="hidden"][name="grecaptcha"]').inputValue();
  const res = await page.request.post('/api/users/guest', { data: { grecaptcha } });
  expect(res.status()).toBe(201);
  const guest = (await res.json()) as { _id: string; isGuest: boolean };
  await page.evaluate((g) => localStorage.setItem('userInfo', JSON.stringify(g)), guest);
  return guest;
}

/** A guest order placed through the API with the page's guest cookie. */
export async function guestOrderViaApi(
  page: Page,
  productId: string,
  email: string,
  more: { product: string; qty: number }[] = [],
): Promise<Order> {
  const shippingAddress = {
    shipToFirstName: US_ADDRESS.firstName,
    shipToLastName: US_ADDRESS.lastName,
    address1: US_ADDRESS.address1,
    address2: '',
    city: US_ADDRESS.city,
    state: 'DC',
    postalCode: US_ADDRESS.postalCode,
    country: 'US',
  };
  const profile = await page.request.put('/api/users/profile', { data: { shippingAddress, email } });
  expect(profile.ok()).toBe(true);
  const res = await page.request.post('/api/orders', {
    data: {
      email,
      shippingAddress: { ...shippingAddress, email },
      paymentMethod: 'PayPal',
      orderItems: [{ product: productId, qty: 1 }, ...more],
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()) as Order;
}
