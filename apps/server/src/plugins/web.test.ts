import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCategory, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

const THEME_SCRIPT = "document.documentElement.dataset.bsTheme='dark'";
let t: TestContext;
let product: { id: string; slug: string };

describe('serving the web app', () => {
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      `<!doctype html><html><head><!--app-head--><script>${THEME_SCRIPT}</script></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>`,
    );
    writeFileSync(path.join(dist, 'assets', 'app.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    t = await createTestApp({ PUBLIC_URL: 'https://shop.example.com' }, { webDist: dist });
    const cat = await createCategory(t.database.db, { name: 'Cameras', slug: 'cameras' });
    product = await createProduct(t.database.db, {
      name: 'Mirrorless Camera "Pro" <X>',
      categoryId: cat.id,
      priceCents: 129900,
      description: `<p>${'Sharp pictures in any light. '.repeat(20)}</p><script>alert(1)</script>`,
    });
  });
  afterAll(async () => t?.close());

  it('writes product meta tags and JSON-LD into the served product page', async () => {
    const res = await t.app.inject({ url: `/product/${product.slug}` });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<title>Mirrorless Camera &quot;Pro&quot; &lt;X&gt; | Store</title>');
    expect(html).toContain(`<link rel="canonical" href="https://shop.example.com/product/${product.slug}">`);
    const description = /<meta name="description" content="([^"]*)">/.exec(html)?.[1] ?? '';
    expect(description.length).toBeGreaterThan(100);
    expect(description.length).toBeLessThanOrEqual(160);
    expect(html).not.toContain('alert(1)');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]!),
    );
    const ld = blocks.find((b) => b['@type'] === 'Product');
    expect(ld).toMatchObject({
      name: 'Mirrorless Camera "Pro" <X>',
      offers: { price: '1299.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });
    const crumbs = blocks.find((b) => b['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual([
      'Home',
      'Cameras',
      'Mirrorless Camera "Pro" <X>',
    ]);
    // the product name's angle brackets cannot close the script element
    expect(html).not.toMatch(/"name":"Mirrorless Camera \\"Pro\\" <X>"/);
  });

  it('preloads the first top product image on the home page, with its responsive widths', async () => {
    const lamp = await createProduct(t.database.db, { name: 'Top Lamp', numReviews: 3, rating: 5 });
    await t.app.catalogCache.invalidate();
    const top = (await t.app.inject({ url: '/api/products/top' })).json()[0] as { _id: string; image: string };
    expect(top._id).toBe(lamp.id);
    const res = await t.app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    const base = top.image.replace(/\.webp$/, '');
    expect(res.body).toContain(
      `<link rel="preload" as="image" href="${top.image}" imagesrcset="${base}-320.webp 320w, ${base}-640.webp 640w, ${top.image} 1024w" imagesizes="(max-width: 767px) 60vw, 420px" fetchpriority="high">`,
    );
    expect(res.body).toContain('<title>Store</title>');
  });

  it('serves the product page by id too, and a 404 page for unknown products', async () => {
    const byId = await t.app.inject({ url: `/product/${product.id}` });
    expect(byId.statusCode).toBe(200);
    expect(byId.body).toContain(`/product/${product.slug}"`);
    const missing = await t.app.inject({ url: '/product/no-such-thing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
  });

  it('answers client routes with the app and API misses with JSON', async () => {
    for (const url of ['/', '/cart', '/search/shoes/page/2', '/admin/productlist', '/admin/productlist/2']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body).toContain('<div id="root">');
    }
    const api = await t.app.inject({ url: '/api/nothing/here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found: GET /api/nothing/here', code: 'NOT_FOUND' });
    expect((await t.app.inject({ url: '/missing.js' })).statusCode).toBe(404);
  });

  it("answers an address that is no page of the app 404, with the app's not-found page", async () => {
    for (const url of ['/no-such-page', '/some/unknown/page', '/admin/productlist/2/3', '/no-such-page?x=1']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.body, url).toContain('<div id="root">');
      expect(res.body, url).toContain('<meta name="robots" content="noindex">');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/no-such-page' });
    expect(head.statusCode).toBe(404);
    for (const url of ['/cart', '/cart/', '/CART/abc', '/contactSupport', '/admin/dashboard', '/search/a.b']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('noindex');
    }
  });

  it('allows exactly the inline scripts of the page through the CSP, and forbids framing', async () => {
    const res = await t.app.inject({ url: '/' });
    const csp = String(res.headers['content-security-policy']);
    const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('compresses and caches hashed assets', async () => {
    const res = await t.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('serves robots.txt and a sitemap listing the products', async () => {
    const robots = await t.app.inject({ url: '/robots.txt' });
    expect(robots.headers['content-type']).toContain('text/plain');
    expect(robots.body).toContain('Sitemap: https://shop.example.com/sitemap.xml');
    expect(robots.body).toContain('Disallow: /admin');
    const sitemap = await t.app.inject({ url: '/sitemap.xml' });
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.body).toContain(`<loc>https://shop.example.com/product/${product.slug}</loc>`);
    expect(sitemap.body).toContain('<loc>https://shop.example.com/</loc>');
  });

  it('publishes the OpenAPI document', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/products', '/api/products/{id}', '/api/categories/roots']),
    );
  });
});
