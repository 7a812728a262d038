import { describe, expect, it } from 'vitest';
import { priceOrder } from '../money.ts';
import {
  ORDER_MESSAGES,
  createOrderSchema,
  guestAccessSchema,
  normalizeTrackingNumber,
  orderListQuerySchema,
  payWithinText,
  shipOrderSchema,
} from './orders.ts';
import { shipmentTrackingSchema } from './fulfilment.ts';

const item = { product: 'a'.repeat(24), qty: 1, selectedColorsVariants: null };
const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('place-order request', () => {
  it('drops every price, total and stock the client sends', () => {
    const parsed = createOrderSchema.parse({
      orderItems: [{ ...item, price: 0.01, countInStock: 999, name: 'Cheap!' }],
      itemsPrice: 0.01,
      taxPrice: 0,
      shippingPrice: 0,
      totalPrice: 0.01,
    });
    expect(parsed).not.toHaveProperty('totalPrice');
    expect(parsed.orderItems[0]).toEqual(item);
  });
  it('refuses an empty order', () => {
    expect(firstMessage(createOrderSchema.safeParse({ orderItems: [] }))).toBe(ORDER_MESSAGES.empty);
    expect(firstMessage(createOrderSchema.safeParse({}))).toBe(ORDER_MESSAGES.empty);
  });
  it('refuses quantities below 1 and fractional quantities', () => {
    expect(firstMessage(createOrderSchema.safeParse({ orderItems: [{ ...item, qty: 0 }] }))).toBe(
      ORDER_MESSAGES.qtyMin,
    );
    expect(firstMessage(createOrderSchema.safeParse({ orderItems: [{ ...item, qty: -3 }] }))).toBe(
      ORDER_MESSAGES.qtyMin,
    );
    expect(firstMessage(createOrderSchema.safeParse({ orderItems: [{ ...item, qty: 1.5 }] }))).toBe(
      ORDER_MESSAGES.qtyWhole,
    );
    expect(firstMessage(createOrderSchema.safeParse({ orderItems: [{ ...item, qty: '2' }] }))).toBe(
      ORDER_MESSAGES.qtyWhole,
    );
  });
  it('accepts a variant as the object the cart holds, as an id, or none', () => {
    const v = { _id: 'b'.repeat(24), name: 'Red', src: '/x.webp', price: 1 };
    expect(
      createOrderSchema.parse({ orderItems: [{ ...item, selectedColorsVariants: v }] }).orderItems[0]
        ?.selectedColorsVariants,
    ).toEqual({ _id: v._id });
    expect(
      createOrderSchema.parse({ orderItems: [{ ...item, selectedColorsVariants: v._id }] }).orderItems[0]
        ?.selectedColorsVariants,
    ).toBe(v._id);
    expect(
      createOrderSchema.parse({ orderItems: [{ product: item.product, qty: 2 }] }).orderItems[0]
        ?.selectedColorsVariants,
    ).toBeUndefined();
  });
});

describe('other order requests', () => {
  it('guest access fields are optional in the schema so the service can answer its own message', () => {
    expect(guestAccessSchema.parse({})).toEqual({});
  });
  it('ship takes tracking numbers with item labels', () => {
    expect(shipOrderSchema.parse({ trackingNumbers: [{ number: ' 1Z999 ' }] })).toEqual({
      trackingNumbers: [{ number: '1Z999', trackingItem: [] }],
    });
    expect(firstMessage(shipOrderSchema.safeParse({ trackingNumbers: [{ number: ' ' }] }))).toBe(
      'Tracking number is required',
    );
  });
  it('stores and looks up tracking numbers as one form: no spaces, upper case, hyphens kept', () => {
    expect(normalizeTrackingNumber(' 1z 999 aa1\t0123 456 784 ')).toBe('1Z999AA10123456784');
    expect(normalizeTrackingNumber('lx-123 456')).toBe('LX-123456');
    const typed = 'rr 123 456 789 cn';
    const stored = shipOrderSchema.parse({ trackingNumbers: [{ number: typed }] }).trackingNumbers[0]!.number;
    const lookup = { trackingId: typed, destinationCountry: 'CN', language: 'en', zipcode: '1' };
    expect(shipmentTrackingSchema.parse(lookup).trackingId).toBe(stored);
    expect(stored).toBe('RR123456789CN');
    expect(firstMessage(shipOrderSchema.safeParse({ trackingNumbers: [{ number: '1Z/999' }] }))).toBe(
      'Tracking number may contain only letters, digits and hyphens',
    );
    expect(firstMessage(shipmentTrackingSchema.safeParse({ ...lookup, trackingId: '1Z/999' }))).toBe(
      'Invalid shipment data',
    );
  });
  it('says the time left to pay in minutes, then hours, then days, rounded down', () => {
    expect(payWithinText(1)).toBe('1 minute');
    expect(payWithinText(42)).toBe('42 minutes');
    expect(payWithinText(60)).toBe('60 minutes');
    expect(payWithinText(119.9)).toBe('119 minutes');
    expect(payWithinText(150)).toBe('2 hours');
    expect(payWithinText(47 * 60)).toBe('47 hours');
    expect(payWithinText(3 * 1440 + 5)).toBe('3 days');
  });
  it('admin list filters read yes/no flags and numbers from the query string', () => {
    expect(orderListQuerySchema.parse({ paid: 'yes', shipped: 'no', delivered: '', minTotal: '10.5' })).toMatchObject({
      paid: true,
      shipped: false,
      delivered: undefined,
      minTotal: 10.5,
      pageNumber: 1,
      pageSize: 20,
    });
  });
  it('admin list dates are days or ISO date-times from year 1 to 9999', () => {
    expect(orderListQuerySchema.parse({ dateFrom: '0001-01-01', dateTo: '9999-12-31' })).toMatchObject({
      dateFrom: '0001-01-01',
      dateTo: '9999-12-31',
    });
    expect(orderListQuerySchema.parse({ dateFrom: '', dateTo: '9999-12-31T23:59:59.999Z' }).dateFrom).toBe('');
    expect(firstMessage(orderListQuerySchema.safeParse({ dateTo: '+275760-09-13T00:00:00.000Z' }))).toBe(
      'dateTo: dates must be between years 1 and 9999',
    );
    expect(firstMessage(orderListQuerySchema.safeParse({ dateFrom: '0000-01-01' }))).toBe(
      'dateFrom: dates must be between years 1 and 9999',
    );
    expect(firstMessage(orderListQuerySchema.safeParse({ dateFrom: 'last week' }))).toBe(
      'dateFrom: not a date; use YYYY-MM-DD or an ISO date-time such as 2025-01-31T12:00:00Z',
    );
  });
});

describe('pricing used by the server and the web app', () => {
  it('tax is 15% of items rounded half up to the cent, total = items + tax + shipping', () => {
    // 3 × $3.33 = $9.99 → tax 149.85¢ → 150¢
    expect(priceOrder([{ unitPriceCents: 333, qty: 3 }], 0)).toEqual({
      itemsCents: 999,
      discountCents: 0,
      taxCents: 150,
      shippingCents: 0,
      totalCents: 1149,
    });
    // $0.03 → tax 0.45¢ → 0¢ ; with $12.99 shipping
    expect(priceOrder([{ unitPriceCents: 3, qty: 1 }], 1299)).toEqual({
      itemsCents: 3,
      discountCents: 0,
      taxCents: 0,
      shippingCents: 1299,
      totalCents: 1302,
    });
  });
});
