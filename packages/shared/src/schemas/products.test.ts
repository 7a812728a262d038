import { describe, expect, it } from 'vitest';
import { PRODUCT_MESSAGES, isHttpUrl, isImageSrc, productImageUpdateSchema, productUpdateSchema } from './products.ts';
import { shipmentTrackingSchema } from './fulfilment.ts';
import { UPLOAD_MESSAGES } from './uploads.ts';

const firstMessage = (body: unknown) => productUpdateSchema.safeParse(body).error?.issues[0]?.message;

describe('product edit rules', () => {
  it('refuses an edit that changes nothing', () => {
    for (const body of [{}, { _id: 'a'.repeat(24) }, { rating: 5 }])
      expect(firstMessage(body)).toBe('Nothing to update');
    for (const body of [{}, { name: 'Lamp' }])
      expect(productImageUpdateSchema.safeParse(body).error?.issues[0]?.message).toBe('Nothing to update');
    expect(productUpdateSchema.parse({ name: 'Lamp' })).toEqual({ name: 'Lamp' });
    expect(productImageUpdateSchema.parse({ imageB: [] })).toEqual({ imageB: [] });
  });
  it('takes http(s) URLs only', () => {
    for (const ok of ['https://example.com', 'http://shop.example.com:8080/a?b=1#c', 'HTTPS://EXAMPLE.COM/x'])
      expect(isHttpUrl(ok), ok).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'ftp://x.com',
      'https://',
      '//example.com',
      'https://a b.com',
      'https://x.com/"><script>',
    ])
      expect(isHttpUrl(bad), bad).toBe(false);
  });

  it('takes our /uploads paths or http(s) URLs as images, never a way out of the folder', () => {
    expect(isImageSrc('/uploads/lamp-1/side-0a1b.webp')).toBe(true);
    expect(isImageSrc('https://cdn.example.com/a.jpg')).toBe(true);
    for (const bad of [
      '/uploads/../x.webp',
      '/uploads/a/../../etc/passwd',
      '/etc/passwd',
      'uploads/a/b.webp',
      '/uploads/a/b/c.webp',
    ])
      expect(isImageSrc(bad), bad).toBe(false);
  });

  it('checks money, stock and names with clear messages', () => {
    expect(productUpdateSchema.parse({ price: '12.50', countInStock: '3' })).toMatchObject({
      price: 12.5,
      countInStock: 3,
    });
    expect(productUpdateSchema.parse({ price: 0.29 }).price).toBe(0.29);
    expect(firstMessage({ price: 1.005 })).toBe(PRODUCT_MESSAGES.price);
    expect(firstMessage({ price: -0.01 })).toBe(PRODUCT_MESSAGES.price);
    expect(firstMessage({ countInStock: 2.5 })).toBe(PRODUCT_MESSAGES.countInStock);
    expect(firstMessage({ name: ' ' })).toBe(PRODUCT_MESSAGES.nameRequired);
    expect(firstMessage({ colorsVariants: [{ name: 'Red', price: 'x' }] })).toBe(PRODUCT_MESSAGES.variantPrice);
    expect(productUpdateSchema.parse({ colorsVariants: [{ name: 'Red', price: '' }] }).colorsVariants?.[0]?.price).toBe(
      '',
    );
  });

  it('words the messages exactly', () => {
    expect(UPLOAD_MESSAGES.skipped(3)).toBe('Only JPG/PNG up to 5MB per file. Skipped 3 invalid file(s).');
    expect(shipmentTrackingSchema.safeParse({ trackingId: 'X1' }).error?.issues[0]?.message).toBe(
      'Invalid shipment data',
    );
  });
});
