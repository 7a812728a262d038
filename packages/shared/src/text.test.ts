import { describe, expect, it } from 'vitest';
import {
  cardName,
  cleanMultiline,
  cleanText,
  hasHtml,
  htmlToText,
  imageSrcSet,
  isObjectId,
  slugify,
  truncate,
} from './text.ts';

describe('text cleaning', () => {
  it('removes control characters, zero-width and direction marks and angle brackets', () => {
    expect(cleanText('a\u0000b\u0007c\u200Bd\u200Ee\u202Ef\uFEFFg')).toBe('abcdefg');
    expect(cleanText('<script>alert(1)</script>')).toBe('scriptalert(1)/script');
  });
  it('collapses runs of spaces and turns newlines into spaces', () => {
    expect(cleanText('  hello \t\n  world  ')).toBe('hello world');
  });
  it('cuts to the limit without leaving trailing space', () => {
    expect(cleanText('abc def', 4)).toBe('abc');
  });
  it('keeps line breaks in multi-line text but limits blank runs', () => {
    expect(cleanMultiline('line one  \r\n\r\n\r\n\r\nline <b>two</b>')).toBe('line one\n\nline btwo/b');
  });
  it('detects markup and scripts', () => {
    expect(hasHtml('<b>x</b>')).toBe(true);
    expect(hasHtml('javascript:alert(1)')).toBe(true);
    expect(hasHtml('a onerror=alert(1)')).toBe(true);
    expect(hasHtml('3 < 4')).toBe(true);
    expect(hasHtml('Plain words, a question? and 50% off!')).toBe(false);
  });
});

describe('display helpers', () => {
  it('cuts card names over 40 characters to 60 plus an ellipsis', () => {
    expect(cardName('Short name')).toBe('Short name');
    const forty = 'x'.repeat(40);
    expect(cardName(forty)).toBe(forty);
    expect(cardName('y'.repeat(41))).toBe(`${'y'.repeat(41)}…`);
    expect(cardName('y'.repeat(50))).toBe(`${'y'.repeat(50)}…`);
    expect(cardName('w'.repeat(60))).toBe(`${'w'.repeat(60)}…`);
    expect(cardName('z'.repeat(70))).toBe(`${'z'.repeat(60)}…`);
  });
  it('truncates at a word boundary with an ellipsis', () => {
    const t = truncate('The quick brown fox jumps over the lazy dog', 20);
    expect(t.length).toBeLessThanOrEqual(20);
    expect(t.endsWith('…')).toBe(true);
    expect(truncate('short', 20)).toBe('short');
  });
  it('turns rich text into plain text', () => {
    expect(
      htmlToText('<p>Hello&nbsp;<strong>big</strong></p><ul><li>one</li><li>two</li></ul><script>x()</script>'),
    ).toBe('Hello big one two');
  });
  it('makes URL slugs from any name', () => {
    expect(slugify('Crème Brûlée Torch — 2-Pack!')).toBe('creme-brulee-torch-2-pack');
    expect(slugify('***')).toBe('product');
    expect(slugify('a'.repeat(200)).length).toBeLessThanOrEqual(80);
  });
  it('recognises 24-hex ids only', () => {
    expect(isObjectId('0123456789abcdef01234567')).toBe(true);
    expect(isObjectId('0123456789ABCDEF01234567')).toBe(false);
    expect(isObjectId('my-product')).toBe(false);
  });
  it('builds a srcset for stored images only', () => {
    expect(imageSrcSet('/uploads/cam/a.webp')).toBe(
      '/uploads/cam/a-320.webp 320w, /uploads/cam/a-640.webp 640w, /uploads/cam/a.webp 1024w',
    );
    expect(imageSrcSet('https://cdn.example.com/a.jpg')).toBeUndefined();
  });
});
