import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './download.ts';

describe('the file name of a download', () => {
  it("takes the server's quoted or bare filename", () => {
    expect(filenameFromDisposition('attachment; filename="products-2025-01-31.csv"', 'x.csv')).toBe(
      'products-2025-01-31.csv',
    );
    expect(filenameFromDisposition('attachment; filename=orders.csv', 'x.csv')).toBe('orders.csv');
    expect(filenameFromDisposition('attachment; filename="a \\"b\\".csv"; size=3', 'x.csv')).toBe('a _b_.csv');
  });

  it('prefers the UTF-8 filename* over the plain one, whatever the order', () => {
    expect(
      filenameFromDisposition(`attachment; filename="caf.csv"; filename*=UTF-8''caf%C3%A9%20list.csv`, 'x.csv'),
    ).toBe('café list.csv');
    expect(
      filenameFromDisposition(`attachment; filename*=utf-8'en'r%C3%A9sum%C3%A9.csv; filename=r.csv`, 'x.csv'),
    ).toBe('résumé.csv');
    // a broken encoding falls back to the plain name
    expect(filenameFromDisposition(`attachment; filename*=UTF-8''%E0%A4%A; filename="plain.csv"`, 'x.csv')).toBe(
      'plain.csv',
    );
  });

  it('never gives a path or a hidden name', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('_.._etc_passwd');
    expect(filenameFromDisposition('attachment; filename="C:\\\\temp\\\\a.csv"', 'x.csv')).toBe('C_temp_a.csv');
    expect(filenameFromDisposition('attachment; filename=".profile"', 'x.csv')).toBe('profile');
  });

  it('falls back when the header names no file', () => {
    expect(filenameFromDisposition(null, 'products.csv')).toBe('products.csv');
    expect(filenameFromDisposition('attachment', 'products.csv')).toBe('products.csv');
    expect(filenameFromDisposition('attachment; filename=""', 'products.csv')).toBe('products.csv');
    expect(filenameFromDisposition('attachment; filename="/./"', 'products.csv')).toBe('products.csv');
  });
});
