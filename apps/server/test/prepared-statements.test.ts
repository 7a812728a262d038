import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { preparingClient, StatementNames } from '#server/db/prepared-statements.ts';
import type { Db } from '#server/db/client.ts';
import { products } from '#server/db/schema/index.ts';
import { newId } from '#server/lib/ids.ts';
import { ordersRepository } from '#server/modules/orders/orders.repository.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { createProduct, createUser } from '#test/factories.ts';
import { usAddress } from '#test/orders-support.ts';
import { adminUrl, testDbKind } from '#test/test-db.ts';

/** What the connection has prepared: its pg_prepared_statements, the store's own only. */
const PREPARED = "select name, statement from pg_prepared_statements where name like 'store_%' order by name";

/**
 * Eight orders for one product, placed one after another on one connection (one transaction) through the
 * placing statement, over a catalogue of 5,001 products, analysed: big enough for the planner to cost index
 * reads by how many ids it expects (on a few rows every plan costs the same). `then` runs on the same
 * connection afterwards. The product had 50 units.
 */
async function placeEight<T>(db: Db, then: (tx: Db) => Promise<T>): Promise<{ after: T; productId: string }> {
  const [buyer, made] = [await createUser(db), await createProduct(db, { countInStock: 50 })];
  const [row] = await db
    .select()
    .from(products)
    .where(sql`${products.id} = ${made.id}`);
  for (let from = 0; from < 5000; from += 1000)
    await db.insert(products).values(
      Array.from({ length: 1000 }, (_, k) => ({
        ...row!,
        id: (from + k + 1).toString(16).padStart(24, '0'),
        slug: `copy-${from + k + 1}`,
        countInStock: 5,
      })),
    );
  await db.execute(sql`analyze products`);
  const after = await db.transaction(async (tx) => {
    for (let i = 0; i < 8; i++) {
      const orderId = newId();
      await ordersRepository.placeWithStock(
        tx as unknown as Db,
        {
          id: orderId,
          userId: buyer.id,
          username: buyer.username,
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          shippingAddress: usAddress,
          paymentMethod: 'PayPal',
          itemsCents: 1000,
          taxCents: 0,
          shippingCents: 0,
          totalCents: 1000,
        },
        [{ id: newId(), orderId, productId: made.id, name: made.name, priceCents: 1000, qty: 1 }],
        { to: 'ada@example.com', subject: 'Order', html: '<p>Order</p>', text: 'Order' },
        null,
        buyer.username,
      );
    }
    return then(tx as unknown as Db);
  });
  return { after, productId: made.id };
}

/** Units left of the product, and orders placed for it. */
async function afterEight(db: Db, productId: string) {
  const [left] = await db
    .select({ n: products.countInStock })
    .from(products)
    .where(sql`${products.id} = ${productId}`);
  const placed = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from order_items where product_id = ${productId}`,
  );
  return { left: left!.n, placed: Number(placed.rows[0]!.n) };
}

/** The app of the test running now, closed after it. */
let t: TestContext | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

if (testDbKind() === 'postgres')
  describe('named prepared statements on PostgreSQL', () => {
    const pools: pg.Pool[] = [];
    /** One connection, so every query sees the same session's prepared statements. */
    const poolOf = (names: StatementNames) => {
      const pool = new pg.Pool({ connectionString: adminUrl(), max: 1, Client: preparingClient(names) });
      pools.push(pool);
      return pool;
    };
    afterAll(async () => {
      await Promise.all(pools.map((p) => p.end()));
    });

    it('runs a statement unnamed the first time and prepared from the second, with the right answers', async () => {
      const pool = poolOf(new StatementNames());
      const text = 'select $1::int + 1 as n';
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push((await pool.query({ text, values: [i] })).rows[0].n);
      expect(answers).toEqual([1, 2, 3, 4]);
      expect((await pool.query(PREPARED)).rows).toEqual([{ name: 'store_1', statement: text }]);
    });

    it('sends a query without values as it was, so several statements in one still run', async () => {
      const pool = poolOf(new StatementNames());
      const text = 'select 1 as a; select 2 as b';
      for (let i = 0; i < 3; i++) {
        const results = (await pool.query({ text, values: [] })) as unknown as pg.QueryResult[];
        expect(results.map((r) => r.rows[0])).toEqual([{ a: 1 }, { b: 2 }]);
      }
      expect((await pool.query(PREPARED)).rows).toEqual([]);
    });

    it('prepares nothing with a bound of 0 (DB_PREPARED_STATEMENTS=false)', async () => {
      const pool = poolOf(new StatementNames(0));
      for (let i = 0; i < 4; i++) await pool.query({ text: 'select $1::int * 2 as n', values: [i] });
      expect((await pool.query(PREPARED)).rows).toEqual([]);
    });

    it('answers each run after a failed one: an error at run time, in a transaction rolled back, or a text the server cannot parse', async () => {
      // one checked-out connection, as a transaction has (the pool itself drops a connection whose query failed)
      const client = await poolOf(new StatementNames()).connect();
      try {
        const divide = 'select 10 / $1::int as n';
        const run = async (v: number) => (await client.query({ text: divide, values: [v] })).rows[0].n;
        expect(await run(5)).toBe(2);
        // its first named run fails: prepared all the same, and the next run uses it
        await expect(run(0)).rejects.toThrow(/division by zero/);
        expect(await run(2)).toBe(5);
        // a statement prepared inside a transaction that rolls back stays prepared (they are not transactional)
        const add = 'select $1::int + 100 as n';
        await client.query({ text: add, values: [1] });
        await client.query('begin');
        expect((await client.query({ text: add, values: [2] })).rows[0].n).toBe(102);
        await expect(run(0)).rejects.toThrow(/division by zero/);
        await client.query('rollback');
        expect((await client.query({ text: add, values: [3] })).rows[0].n).toBe(103);
        expect(await run(1)).toBe(10);
        const broken = 'selec $1::int';
        for (let i = 0; i < 3; i++)
          await expect(client.query({ text: broken, values: [1] })).rejects.toThrow(/syntax error/);
        expect((await client.query(PREPARED)).rows).toEqual([
          { name: 'store_1', statement: divide },
          { name: 'store_2', statement: add },
        ]);
      } finally {
        client.release();
      }
    });

    it("the store's own queries run prepared once repeated, and answer as before", async () => {
      t = await createTestApp({ MAIL_WORKER: 'false' });
      const made = await createProduct(t.database.db, { name: 'Prepared lamp' });
      // one transaction: one connection of the pool, so its session's statements can be listed
      const seen = await t.database.db.transaction(async (tx) => {
        const names: string[] = [];
        for (let i = 0; i < 3; i++) {
          const rows = await tx
            .select({ name: products.name })
            .from(products)
            .where(sql`${products.id} = ${made.id}`);
          names.push(rows[0]!.name);
        }
        const prepared = await tx.execute<{ statement: string }>(sql.raw(PREPARED));
        return { names, statements: prepared.rows.map((r) => r.statement) };
      });
      expect(seen.names).toEqual(['Prepared lamp', 'Prepared lamp', 'Prepared lamp']);
      expect(seen.statements).toContainEqual(
        expect.stringMatching(/^select "name" from "products" where "products"\."id" = \$1$/),
      );
    });

    it('plans the order-placing statement once per connection: PostgreSQL keeps its generic plan', async () => {
      t = await createTestApp({ MAIL_WORKER: 'false' });
      const { after: plans, productId } = await placeEight(t.database.db, async (tx) => {
        const listed = await tx.execute<{ generic_plans: string; custom_plans: string }>(
          sql.raw(
            "select generic_plans, custom_plans from pg_prepared_statements where statement like '%with lines as%'",
          ),
        );
        return listed.rows.map((r) => ({ generic: Number(r.generic_plans), custom: Number(r.custom_plans) }));
      });
      // run unnamed once, then prepared: five custom plans, and the generic one from then on
      expect(plans).toEqual([{ generic: 2, custom: 5 }]);
      expect(await afterEight(t.database.db, productId)).toEqual({ left: 42, placed: 8 });
    });
  });

if (testDbKind() === 'pglite')
  describe('the order-placing statement on the embedded database', () => {
    it('places eight orders in a row, each taking its unit (no statement is named here)', async () => {
      t = await createTestApp({ MAIL_WORKER: 'false' });
      const { productId } = await placeEight(t.database.db, async () => undefined);
      expect(await afterEight(t.database.db, productId)).toEqual({ left: 42, placed: 8 });
    });
  });
