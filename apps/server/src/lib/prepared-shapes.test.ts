import { asc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '#server/db/schema/index.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { direct, PreparedShapes, type Bind } from './prepared-shapes.ts';

let t: TestContext;

describe('statements prepared once per shape', () => {
  beforeAll(async () => {
    t = await createTestApp();
    for (const [i, name] of ['Alpha Mug', 'Beta Mug', 'Gamma Bowl', 'Delta Bowl'].entries())
      await createProduct(t.app.db, { name, slug: `shape-${i}`, priceCents: 1000 + 100 * i });
  });
  afterAll(async () => t?.close());

  const query = (bind: Bind, minCents: number, slug?: string) =>
    t.app.db
      .select({ name: products.name })
      .from(products)
      .where(
        slug === undefined ? gte(products.priceCents, bind('min', minCents)) : eq(products.slug, bind('slug', slug)),
      )
      .orderBy(asc(products.priceCents));

  it('answers each run with its own values, as the statement built each time does', async () => {
    const shapes = new PreparedShapes();
    for (const min of [1000, 1200, 1300, 5000, 1100]) {
      const kept = await shapes.run(t.app.db, 'by price', (bind) => query(bind, min));
      expect(kept).toEqual(await query(direct, min));
    }
    // the filters present are part of the shape: another filter is another statement
    expect(await shapes.run(t.app.db, 'by price', (bind) => query(bind, 0, 'shape-2'))).toEqual([
      { name: 'Gamma Bowl' },
    ]);
  });

  it('refuses (outside production) a run whose statement is not the one kept for its shape', async () => {
    const shapes = new PreparedShapes();
    await shapes.run(t.app.db, 'one', (bind) => query(bind, 1000));
    // the same shape and names, other SQL: the caller's shape left out a choice of the builder
    await expect(shapes.run(t.app.db, 'one', (bind) => query(bind, 1000).limit(1))).rejects.toThrow(
      /built another statement/,
    );
    // a value put in without bind: the kept statement would send the first run's
    const unbound = (cents: number) =>
      t.app.db.select({ name: products.name }).from(products).where(gte(products.priceCents, cents));
    await shapes.run(t.app.db, 'two', () => unbound(1000));
    await expect(shapes.run(t.app.db, 'two', () => unbound(1200))).rejects.toThrow(/parameter 1 is not bound/);
  });

  it('keeps at most its bound of shapes, the least recently used dropped first', async () => {
    const shapes = new PreparedShapes(2);
    for (const min of [1000, 1100, 1200]) await shapes.run(t.app.db, `shape ${min}`, (bind) => query(bind, min));
    const kept = (shapes as unknown as { perDb: WeakMap<object, Map<string, unknown>> }).perDb.get(t.app.db)!;
    expect([...kept.keys()].map((k) => k.split('|')[0])).toEqual(['shape 1100', 'shape 1200']);
  });
});
