import { describe, expect, it } from 'vitest';
import { paths } from './paths.ts';

describe('paths', () => {
  it('sends to sign-in with the location to come back to, encoded', () => {
    expect(paths.login()).toBe('/login');
    expect(paths.login('/profile')).toBe('/login?redirect=%2Fprofile');
    expect(paths.login('/search/a b?x=1&y=2')).toBe('/login?redirect=%2Fsearch%2Fa%20b%3Fx%3D1%26y%3D2');
    expect(paths.register('/shipping')).toBe('/register?redirect=%2Fshipping');
    expect(paths.forgotPassword()).toBe('/forgotpw');
  });

  it('writes a fixed page to come back to readably', () => {
    expect(paths.loginThen(paths.shipping)).toBe('/login?redirect=/shipping');
    expect(paths.loginThen(paths.product('blue-mug'))).toBe('/login?redirect=/product/blue-mug');
  });

  it('builds catalogue, order and admin addresses', () => {
    expect(paths.search('red shoes')).toBe('/search/red%20shoes');
    expect(paths.search('red shoes', 3)).toBe('/search/red%20shoes/page/3');
    expect(paths.catalogPage(2)).toBe('/page/2');
    expect(paths.order('abc')).toBe('/order/abc');
    expect(paths.registerConfirm('a/b')).toBe('/registerconfirm/a%2Fb');
    expect(paths.adminProductsPage(4)).toBe('/admin/productlist/4');
    expect(paths.adminOrdersPage(2)).toBe('/admin/orderlist?page=2');
    expect(paths.adminUserEdit('u1')).toBe('/admin/user/u1/edit');
  });
});
