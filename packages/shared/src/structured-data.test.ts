import { describe, expect, it } from 'vitest';
import type { Product } from './schemas/catalog.ts';
import { productStructuredData } from './structured-data.ts';

const base: Product = {
  _id: '0123456789abcdef01234567',
  slug: 'trail-lantern',
  name: 'Trail Lantern',
  image: '/uploads/lantern/main.webp',
  price: 32.5,
  brand: 'Northpeak',
  category: 'Camping',
  categoryId: null,
  countInStock: 0,
  rating: 4.5,
  numReviews: 2,
  purchaseLink: '',
  colorsVariants: [],
  imageFolderName: 'lantern',
  imageB: [{ src: '/uploads/lantern/side.webp' }],
  video: '',
  description: `<p>${'Bright and light. '.repeat(30)}</p>`,
  shippingMethod: '',
  reviews: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('product structured data', () => {
  it('describes the offer, the rating and absolute image URLs', () => {
    const d = productStructuredData(base, 'https://shop.example.com');
    expect(d.url).toBe('https://shop.example.com/product/trail-lantern');
    expect(d.product.offers).toMatchObject({
      price: '32.50',
      priceCurrency: 'USD',
      availability: 'https://schema.org/OutOfStock',
    });
    expect(d.product.aggregateRating).toEqual({ '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2 });
    expect(d.product.image).toEqual([
      'https://shop.example.com/uploads/lantern/main.webp',
      'https://shop.example.com/uploads/lantern/side.webp',
    ]);
    expect(d.crumbs.itemListElement.map((i) => i.name)).toEqual(['Home', 'Camping', 'Trail Lantern']);
  });

  it('cuts the description to 160 characters of plain text', () => {
    const d = productStructuredData(base, 'https://shop.example.com');
    expect(d.description.length).toBeLessThanOrEqual(160);
    expect(d.description).not.toContain('<');
    expect(d.description.endsWith('…')).toBe(true);
  });

  it('leaves out what a product does not have', () => {
    const d = productStructuredData({ ...base, image: '', brand: '', category: '', numReviews: 0 }, 'https://x.test');
    expect(d.product).not.toHaveProperty('image');
    expect(d.product).not.toHaveProperty('brand');
    expect(d.product).not.toHaveProperty('aggregateRating');
    expect(d.crumbs.itemListElement).toHaveLength(2);
    expect(d.image).toBe('');
  });
});
