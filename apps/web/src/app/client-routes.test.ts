import { readFileSync } from 'node:fs';
import { CLIENT_ROUTES, isClientRoute } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { paths } from '../lib/paths.ts';

/** The router's source: the server's list of pages (CLIENT_ROUTES) must name exactly its routes. */
const source = readFileSync(new URL('./router.tsx', import.meta.url), 'utf8');

/** A `path=` value of the router: a literal, or `paths.name` / `paths.name()` of lib/paths.ts. */
function routePath(literal: string | undefined, expression: string | undefined): string {
  if (literal !== undefined) return literal;
  const m = /^\s*paths\.(\w+)(\(\))?\s*$/.exec(expression ?? '');
  if (!m) throw new Error(`router.tsx: cannot read path={${expression}}; use a literal or paths.name`);
  const value = (paths as Record<string, unknown>)[m[1]!];
  const resolved = typeof value === 'function' ? (value as () => unknown)() : value;
  if (typeof resolved !== 'string') throw new Error(`router.tsx: paths.${m[1]} is not a path`);
  return resolved;
}

function routerPaths(): string[] {
  const found = [...source.matchAll(/\bpath=(?:"([^"]*)"|\{([^}]*)\})/g)].map((m) => routePath(m[1], m[2]));
  // the index route is the home page
  if (/<Route\s+index\b/.test(source)) found.push('/');
  return found.filter((p) => p !== '*');
}

/** A pattern with its parameters unnamed and a leading slash, lower-case: '/cart/:?' for 'cart/:id?'. */
const shape = (p: string) =>
  `/${p.replace(/^\/+/, '')}`
    .toLowerCase()
    .replace(/:[\w]+(\?)?/g, (_m, optional: string | undefined) => `:${optional ?? ''}`);

/** An address the pattern matches, each parameter filled in (an optional one too). */
const sample = (p: string) => `/${p.replace(/^\/+/, '')}`.replace(/:[\w]+\??/g, 'x1');

describe('client routes shared with the server', () => {
  it('reads the routes of router.tsx', () => {
    const found = routerPaths();
    expect(found.length).toBeGreaterThan(20);
    expect(found).toContain('/');
    expect(found).toContain('/admin/dashboard');
  });

  it('lists exactly the routes router.tsx declares', () => {
    const router = [...new Set(routerPaths().map(shape))].sort();
    const shared = [...new Set(CLIENT_ROUTES.map(shape))].sort();
    expect(shared).toEqual(router);
  });

  it('matches every address of every route, as the router does', () => {
    for (const p of routerPaths()) {
      expect(isClientRoute(sample(p)), p).toBe(true);
      expect(isClientRoute(sample(p).toUpperCase()), `${p} in capitals`).toBe(true);
    }
    expect(isClientRoute('/cart')).toBe(true);
    expect(isClientRoute('/cart/')).toBe(true);
    expect(isClientRoute('/admin/productlist/2')).toBe(true);
    expect(isClientRoute('/contactSupport')).toBe(true);
  });

  it('matches nothing else', () => {
    for (const p of ['/no-such-page', '/admin', '/admin/productlist/2/3', '/cart/a/b', '/order', '/product', '//'])
      expect(isClientRoute(p), p).toBe(false);
  });
});
