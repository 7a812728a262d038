import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '#test/accounts.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder } from '#test/orders-support.ts';

let t: TestContext;
let admin: { headers: Record<string, string> };
const anon = { headers: {} };
type Auth = { headers: Record<string, string> };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, auth: Auth = anon, payload?: object) =>
  t.app.inject({ method, url, headers: auth.headers, ...(payload ? { payload } : {}) });
let made = 0;
/** A new product, published: these tests read it back through the shop's calls, which never show drafts. */
const create = async () => {
  const draft = (await call('POST', '/api/products', admin)).json();
  return (await call('PUT', `/api/products/${draft._id}`, admin, { name: `Content Item ${++made}`, price: 10 })).json();
};

describe('admin product edits: slugs, description, gallery, deletion', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAccount(t, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  it('keeps old slugs redirecting after renames and never hands a slug to two products', async () => {
    const p = await create();
    await call('PUT', `/api/products/${p._id}`, admin, { name: 'Walnut Chair' });
    const renamed = (await call('PUT', `/api/products/${p._id}`, admin, { name: 'Oak Chair' })).json();
    expect(renamed.slug).toBe('oak-chair');
    for (const old of ['walnut-chair', p.slug])
      expect((await call('GET', `/api/products/slug/${old}`)).json()).toMatchObject({ _id: p._id, slug: 'oak-chair' });
    // another product named like the former one gets its own slug: the old link keeps its product
    const other = await create();
    const clash = (await call('PUT', `/api/products/${other._id}`, admin, { name: 'Walnut Chair' })).json();
    expect(clash.slug).toBe('walnut-chair-2');
    expect((await call('GET', '/api/products/slug/walnut-chair')).json()._id).toBe(p._id);
    // renaming back takes the product's own old slug again
    expect((await call('PUT', `/api/products/${p._id}`, admin, { name: 'Walnut Chair' })).json().slug).toBe(
      'walnut-chair',
    );
    expect((await call('GET', '/api/products/slug/oak-chair')).json()._id).toBe(p._id);
    // a name that makes the same slug keeps it
    expect((await call('PUT', `/api/products/${other._id}`, admin, { name: 'WALNUT chair!' })).json().slug).toBe(
      'walnut-chair-2',
    );
  });

  it('sanitises the description: no script, no event handlers, no javascript: links', async () => {
    const p = await create();
    const html =
      '<h2 onclick="steal()">Specs</h2><script>alert(1)</script><style>p{}</style>' +
      '<p>Bright <img src=x onerror="alert(2)"> <a href="javascript:alert(3)">bad</a> ' +
      '<a href="https://maker.example.com" target="_blank">maker</a> <a href="mailto:help@example.com">mail</a></p>' +
      '<ul><li><em>one</em></li></ul><blockquote>q</blockquote><iframe src="https://evil.example.com"></iframe>';
    const saved = (await call('PUT', `/api/products/${p._id}`, admin, { description: html })).json();
    expect(saved.description).not.toMatch(/script|onclick|onerror|javascript:|<img|<iframe|<style|target=/i);
    expect(saved.description).toContain('<h2>Specs</h2>');
    expect(saved.description).toContain(
      '<a href="https://maker.example.com" rel="noopener noreferrer nofollow">maker</a>',
    );
    expect(saved.description).toContain('href="mailto:help@example.com"');
    expect(saved.description).toContain('<ul><li><em>one</em></li></ul><blockquote>q</blockquote>');
    // the plain text (search, meta tags) follows the sanitised HTML
    expect(
      (await call('GET', '/api/products?keyword=specs')).json().products.map((x: { _id: string }) => x._id),
    ).toContain(p._id);
  });

  it('replaces gallery and variants as whole lists, keeping the ids of variants it is given back', async () => {
    const p = await create();
    const first = (
      await call('PUT', `/api/products/${p._id}`, admin, {
        colorsVariants: [{ name: 'Red' }, { name: 'Blue', price: 5 }],
        imageB: [{ src: '/uploads/f/a.webp' }, { src: '/uploads/f/b.webp' }],
      })
    ).json();
    const [red, blue] = first.colorsVariants;
    const next = (
      await call('PUT', `/api/products/image/${p._id}`, admin, {
        image: '/uploads/f/b.webp',
        imageB: [{ src: '/uploads/f/b.webp' }],
        colorsVariants: [{ _id: blue._id, name: 'Navy', src: '/uploads/f/b.webp', price: '' }, { name: 'Green' }],
      })
    ).json();
    expect(next.image).toBe('/uploads/f/b.webp');
    expect(next.imageB.map((i: { src: string }) => i.src)).toEqual(['/uploads/f/b.webp']);
    expect(next.colorsVariants).toMatchObject([
      { _id: blue._id, name: 'Navy', price: null, src: '/uploads/f/b.webp' },
      { name: 'Green' },
    ]);
    expect(next.colorsVariants.map((v: { _id: string }) => v._id)).not.toContain(red._id);
    // the image route takes only gallery fields: a body with none of them changes nothing and says so
    const renamed = await call('PUT', `/api/products/image/${p._id}`, admin, { name: 'Ignored' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toEqual({ message: 'Nothing to update', code: 'NOTHING_TO_UPDATE' });
    expect((await call('GET', `/api/products/${p._id}`)).json().name).toBe(p.name);
  });

  it('deletes a product while the orders that contain it stay readable', async () => {
    const buyer = await createAccount(t);
    const p = await createProduct(t.app.db, { name: 'Doomed Mug', priceCents: 1500, variants: [{ name: 'White' }] });
    const variantId = (await call('GET', `/api/products/${p.id}`)).json().colorsVariants[0]._id;
    const order = (
      await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 2, selectedColorsVariants: { _id: variantId } }]))
    ).json();
    const res = await call('DELETE', `/api/products/${p.id}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Product removed' });
    expect((await call('GET', `/api/products/${p.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/products/${p.id}`, admin)).statusCode).toBe(404);
    const after = await call('GET', `/api/orders/${order._id}`, buyer);
    expect(after.statusCode).toBe(200);
    expect(after.json().orderItems[0]).toMatchObject({ product: null, name: 'Doomed Mug', price: 15, qty: 2 });
    expect(after.json().orderItems[0].selectedColorsVariants).toMatchObject({ name: 'White' });
  });
});
