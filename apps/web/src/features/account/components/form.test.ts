import { describe, expect, it } from 'vitest';
import { safeRedirect } from './form.tsx';

describe('where sign-in goes next', () => {
  it('honours a same-site path starting with /, query included', () => {
    expect(safeRedirect('/admin/orderlist?page=2')).toBe('/admin/orderlist?page=2');
    expect(safeRedirect('/profile')).toBe('/profile');
    expect(safeRedirect('/search/a%20b?x=1#top')).toBe('/search/a%20b?x=1#top');
  });

  it('goes home for anything else', () => {
    for (const raw of [
      null,
      '',
      'profile',
      'admin/userlist',
      'https://evil.example/',
      'javascript:alert(1)',
      '//evil.example/x',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
    ])
      expect(safeRedirect(raw), String(raw)).toBe('/');
  });
});
