import type { Product } from '@store/shared';
import { describe, expect, it } from 'vitest';
import {
  addToCart,
  itemCount,
  itemsTotalCents,
  lineFor,
  parseCartItems,
  removeFromCart,
  setQty,
} from './cart-logic.ts';

const red = { _id: 'v-red', name: 'Red', src: '/uploads/lamp/red.webp', price: 34.99 };
const blue = { _id: 'v-blue', name: 'Blue', src: '', price: null };
const lamp = {
  _id: 'p1',
  slug: 'desk-lamp',
  name: 'Desk Lamp',
  image: '/uploads/lamp/main.webp',
  price: 29.99,
  countInStock: 5,
  colorsVariants: [red, blue],
} as unknown as Product;

describe('lineFor', () => {
  it("takes a variant's own price and picture, else the product's", () => {
    expect(lineFor(lamp, red, 1)).toMatchObject({ price: 34.99, image: red.src, selectedColorsVariants: red });
    expect(lineFor(lamp, blue, 1)).toMatchObject({ price: 29.99, image: lamp.image });
    expect(lineFor(lamp, null, 9).qty).toBe(5);
  });
});

describe('addToCart', () => {
  it('adds a new line per product and variant', () => {
    let items = addToCart([], lineFor(lamp, red, 1));
    items = addToCart(items, lineFor(lamp, blue, 2));
    items = addToCart(items, lineFor(lamp, null, 1));
    expect(items).toHaveLength(3);
    expect(itemCount(items)).toBe(4);
  });

  it('raises the quantity of an existing line, capped at the stock, and refreshes its data', () => {
    let items = addToCart([], lineFor(lamp, red, 2));
    const renamed = { ...lamp, name: 'Desk Lamp 2', countInStock: 3, colorsVariants: [{ ...red, price: 39.99 }] };
    items = addToCart(items, lineFor(renamed, renamed.colorsVariants[0]!, 2));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ qty: 3, name: 'Desk Lamp 2', price: 39.99, countInStock: 3 });
  });
});

describe('setQty and removeFromCart', () => {
  it('touch only the line of that product and variant', () => {
    let items = addToCart(addToCart([], lineFor(lamp, red, 1)), lineFor(lamp, blue, 1));
    items = setQty(items, 'p1', 'v-blue', 4);
    expect(items.map((i) => i.qty)).toEqual([1, 4]);
    items = setQty(items, 'p1', 'v-blue', 99);
    expect(items[1]?.qty).toBe(5);
    items = removeFromCart(items, 'p1', 'v-red');
    expect(items.map((i) => i.selectedColorsVariants?._id)).toEqual(['v-blue']);
  });
});

describe('itemsTotalCents', () => {
  it('adds in cents without float drift', () => {
    const items = [lineFor(lamp, red, 3), lineFor({ ...lamp, _id: 'p2', price: 0.1 } as Product, null, 3)];
    expect(itemsTotalCents(items)).toBe(3 * 3499 + 30);
  });
});

describe('parseCartItems', () => {
  it('keeps valid stored lines and drops the rest', () => {
    const stored = [lineFor(lamp, red, 2), { product: 5 }, null, 'x', { ...lineFor(lamp, null, 1), qty: 'two' }];
    const items = parseCartItems(JSON.parse(JSON.stringify(stored)));
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ qty: 2, selectedColorsVariants: { _id: 'v-red', price: 34.99 } });
    expect(items[1]?.qty).toBe(1);
    expect(parseCartItems({ not: 'an array' })).toEqual([]);
  });
});
