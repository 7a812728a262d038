import type { ColorVariant, Product } from '@store/shared';
import { describe, expect, it } from 'vitest';
import {
  addToCart,
  clampQty,
  itemCount,
  itemsTotalCents,
  lineFor,
  ORDER_QTY_MAX,
  parseCartItems,
  parseQty,
  qtyMax,
  removeFromCart,
  setQty,
  subtotalLabel,
} from './cart-logic.ts';

const red: ColorVariant = {
  _id: 'v-red',
  name: 'Red',
  src: '/uploads/lamp/red.webp',
  price: 34.99,
  countInStock: null,
  sku: '',
};
const blue: ColorVariant = { _id: 'v-blue', name: 'Blue', src: '', price: null, countInStock: null, sku: '' };
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
    const renamed: Product = {
      ...lamp,
      name: 'Desk Lamp 2',
      countInStock: 3,
      colorsVariants: [{ ...red, price: 39.99 }],
    };
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

  it('reads lines stored before variants had their own stock and SKU as drawing on the product stock', () => {
    const old = [
      {
        product: 'p1',
        name: 'Desk Lamp',
        image: '',
        price: 29.99,
        countInStock: 5,
        qty: 2,
        selectedColorsVariants: { _id: 'v-red', name: 'Red', src: '/uploads/lamp/red.webp', price: 34.99 },
      },
    ];
    const [line] = parseCartItems(JSON.parse(JSON.stringify(old)));
    expect(line).toMatchObject({ qty: 2, countInStock: 5 });
    expect(line?.selectedColorsVariants).toEqual({ ...red, countInStock: null, sku: '' });
  });

  it('keeps a stored variant stock and SKU, and drops a malformed stock', () => {
    const ownRed = { ...red, countInStock: 2, sku: 'LAMP-RED' };
    const stored = [
      lineFor({ ...lamp, colorsVariants: [ownRed, blue] }, ownRed, 1),
      { ...lineFor(lamp, blue, 1), selectedColorsVariants: { ...blue, countInStock: -3, sku: 7 } },
    ];
    const items = parseCartItems(JSON.parse(JSON.stringify(stored)));
    expect(items[0]).toMatchObject({ countInStock: 2, selectedColorsVariants: { countInStock: 2, sku: 'LAMP-RED' } });
    expect(items[1]?.selectedColorsVariants).toMatchObject({ countInStock: null, sku: '' });
  });
});

describe('variant stock', () => {
  const green: ColorVariant = { _id: 'v-green', name: 'Green', src: '', price: null, countInStock: 2, sku: 'G' };
  const gone: ColorVariant = { _id: 'v-gone', name: 'Gone', src: '', price: null, countInStock: 0, sku: '' };
  const mug = { ...lamp, countInStock: 50, colorsVariants: [red, green, gone] } as Product;

  it("a line's stock is the variant's own when it has one, else the product's", () => {
    expect(lineFor(mug, green, 1).countInStock).toBe(2);
    expect(lineFor(mug, red, 1).countInStock).toBe(50);
    expect(lineFor(mug, null, 1).countInStock).toBe(50);
    expect(lineFor(mug, gone, 1).countInStock).toBe(0);
  });

  it("caps the quantity at the variant's own stock, on adding and on setting it", () => {
    expect(lineFor(mug, green, 9).qty).toBe(2);
    expect(lineFor(mug, red, 9).qty).toBe(9);
    let items = addToCart([], lineFor(mug, green, 1));
    items = addToCart(items, lineFor(mug, green, 5));
    expect(items[0]?.qty).toBe(2);
    items = addToCart(items, lineFor(mug, red, 40));
    items = setQty(items, 'p1', 'v-green', 7);
    items = setQty(items, 'p1', 'v-red', 45);
    expect(items.map((i) => i.qty)).toEqual([2, 45]);
  });

  it('a stored line keeps the cap of its variant stock', () => {
    const stored = [{ ...lineFor(mug, green, 2), qty: 9 }];
    expect(parseCartItems(JSON.parse(JSON.stringify(stored)))[0]?.qty).toBe(2);
  });
});

describe('quantities', () => {
  it('qtyMax is the stock, at most ORDER_QTY_MAX and at least 1', () => {
    expect(qtyMax(5)).toBe(5);
    expect(qtyMax(100_000)).toBe(ORDER_QTY_MAX);
    expect(qtyMax(0)).toBe(1);
    expect(clampQty(50_000, 100_000)).toBe(ORDER_QTY_MAX);
    expect(clampQty(Number.NaN, 3)).toBe(1);
  });

  it('parseQty reads whole numbers from 1, capped at the maximum, and nothing else', () => {
    expect(parseQty('3', 10)).toBe(3);
    expect(parseQty(' 12 ', 10)).toBe(10);
    expect(parseQty('007', 10)).toBe(7);
    for (const text of ['', '0', '-2', '1.5', '1e3', 'two']) expect(parseQty(text, 10)).toBeNull();
  });
});

describe('subtotalLabel', () => {
  it('puts the count and the word inside the parentheses', () => {
    expect(subtotalLabel(1)).toBe('Subtotal (1 item)');
    expect(subtotalLabel(3)).toBe('Subtotal (3 items)');
  });
});
