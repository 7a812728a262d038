import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponUses, coupons, orders, productVariants, products } from '#server/db/schema/index.ts';
import { createCoupon, createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { guest, orderBody, placeOrder, signedIn } from '#test/orders-support.ts';
import { testDbKind } from '#test/test-db.ts';

let t: TestContext;

/**
 * Many orders at once for a variant's last units, some carrying a discount code limited to a few uses.
 * On PostgreSQL they truly race (a pool of connections); on the embedded database they run one after
 * another, and the same invariants hold.
 */
describe('variant stock and code uses under concurrency', () => {
  beforeAll(async () => {
    // on PostgreSQL, connections enough for the ten orders that wait on the code's row below, with one
    // to spare for the others' reads
    t = await createTestApp({}, {}, undefined, { poolSize: 16 });
  });
  afterAll(async () => t?.close());

  const ORDERS = testDbKind() === 'postgres' ? 200 : 60;

  async function race(withCode: (i: number) => boolean, usageLimit: number) {
    const p = await createProduct(t.app.db, {
      name: `Racing Mug ${ORDERS}-${Math.random()}`,
      countInStock: 1000,
      variants: [{ name: 'Blue', countInStock: 10 }],
    });
    const blue = p.variantRows[0]!;
    const coupon = await createCoupon(t.app.db, { type: 'percent', value: 2000, usageLimit });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(t.app)));
    const results = await Promise.all(
      Array.from({ length: ORDERS }, (_, i) =>
        placeOrder(
          t.app,
          buyers[i % buyers.length]!,
          orderBody(
            [{ product: p.id, qty: 1, selectedColorsVariants: blue.id }],
            withCode(i) ? { couponCode: coupon.code } : {},
          ),
        ),
      ),
    );
    const unexpected = results.filter((r) => ![201, 400, 409].includes(r.statusCode));
    expect(unexpected.map((r) => `${r.statusCode} ${r.body}`)).toEqual([]);
    const placed = results.filter((r) => r.statusCode === 201).map((r) => r.json());
    const [variant] = await t.app.db
      .select({ n: productVariants.countInStock })
      .from(productVariants)
      .where(eq(productVariants.id, blue.id));
    const [product] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
    const [code] = await t.app.db.select({ used: coupons.timesUsed }).from(coupons).where(eq(coupons.id, coupon.id));
    const [perEmail] = await t.app.db
      .select({ n: sql<number>`coalesce(sum(${couponUses.uses}), 0)::int` })
      .from(couponUses)
      .where(eq(couponUses.couponId, coupon.id));
    const carrying = await t.app.db.$count(orders, eq(orders.couponId, coupon.id));
    return {
      sold: placed.length,
      redeemed: placed.filter((o) => o.couponCode === coupon.code).length,
      variantLeft: variant!.n,
      productLeft: product!.n,
      timesUsed: code!.used,
      perEmail: perEmail!.n,
      carrying,
      refusals: results.filter((r) => r.statusCode !== 201).map((r) => r.json().code as string),
    };
  }

  it(`${ORDERS} orders for a variant with 10 units, nearly all with a code limited to 5: exactly 10 sold, 5 redeemed`, async () => {
    // five orders without the code; a code's use can only take the units those five leave
    const r = await race((i) => i % (ORDERS / 5) !== 0, 5);
    expect(r.sold).toBe(10);
    expect(r.redeemed).toBe(5);
    expect(r.variantLeft).toBe(0);
    expect(r.productLeft).toBe(1000); // the product's own stock is not the variant's
    expect([r.timesUsed, r.perEmail, r.carrying]).toEqual([5, 5, 5]);
    // each refusal says why: the units were gone, or the code's uses (which of the two came first varies)
    for (const code of r.refusals) expect(['OUT_OF_STOCK', 'COUPON_USED_UP', 'COUPON_NOT_APPLICABLE']).toContain(code);
    expect(r.refusals).toHaveLength(ORDERS - 10);
  });

  it(`${ORDERS} orders, half with the code: never more than 10 sold or 5 redeemed, and the counts agree`, async () => {
    const r = await race((i) => i % 2 === 0, 5);
    expect(r.sold).toBe(10);
    expect(r.variantLeft).toBe(0);
    expect(r.redeemed).toBeLessThanOrEqual(5);
    expect([r.timesUsed, r.perEmail, r.carrying]).toEqual([r.redeemed, r.redeemed, r.redeemed]);
  });

  it('60 orders with a code limited to 5 for the last 10 units: once the code is used up, the orders held for the units are refused at once (409), none sent to the database to find out', async () => {
    const WANTING = 60;
    const p = await createProduct(t.app.db, { name: `Last Ten Mug ${Math.random()}`, countInStock: 10 });
    const coupon = await createCoupon(t.app.db, { type: 'percent', value: 1000, usageLimit: 5 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(t.app)));
    // On PostgreSQL the code's row is held locked by another transaction until the orders the units
    // cannot serve yet are held by the gate, so the ten admitted all read the code with uses left and
    // five of them are then refused by the placing statement (the embedded database has one connection:
    // there the orders run one after another and the invariants alone hold)
    const locking = testDbKind() === 'postgres';
    let unlock = () => {};
    const unlocked = new Promise<void>((resolve) => (unlock = resolve));
    const lock = locking
      ? t.app.db.transaction(async (tx) => {
          await tx.execute(sql`select ${coupons.id} from ${coupons} where ${coupons.id} = ${coupon.id} for update`);
          await unlocked;
        })
      : Promise.resolve();
    const placing = Promise.all(
      Array.from({ length: WANTING }, (_, i) =>
        placeOrder(
          t.app,
          buyers[i % buyers.length]!,
          orderBody([{ product: p.id, qty: 1 }], { couponCode: coupon.code }),
        ),
      ),
    );
    let heldWhileLocked = 0;
    let waitingWhileLocked = 0;
    try {
      // until the fifty are held and the ten admitted wait on a lock in their placing statement (each
      // read the code before it): an order admitted late must not read the code after the unlock
      if (locking)
        for (let i = 0; i < 1500 && (heldWhileLocked < WANTING - 10 || waitingWhileLocked < 10); i++) {
          await new Promise((r) => setTimeout(r, 10));
          heldWhileLocked = t.app.stockGate.held();
          const waiting = await t.app.db.execute<{ n: number }>(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          waitingWhileLocked = waiting.rows[0]!.n;
        }
    } finally {
      unlock();
    }
    await lock;
    const results = await placing;
    expect(results.filter((r) => ![201, 400, 409].includes(r.statusCode)).map((r) => r.body)).toEqual([]);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    const [code] = await t.app.db.select({ used: coupons.timesUsed }).from(coupons).where(eq(coupons.id, coupon.id));
    expect(code!.used).toBe(5);
    const [product] = await t.app.db.select({ n: products.countInStock }).from(products).where(eq(products.id, p.id));
    expect(product!.n).toBe(5);
    expect(t.app.stockGate.held()).toBe(0);
    const refusals = results.filter((x) => x.statusCode !== 201).map((r) => `${r.statusCode} ${r.json().code}`);
    if (locking) {
      // ten admitted (blocked on the code's row), fifty held for the units
      expect(heldWhileLocked).toBe(WANTING - 10);
      expect(waitingWhileLocked).toBe(10);
      // five refused by the placing statement, and the fifty held refused by the gate as soon as one of
      // those said the code was used up: none admitted in turn to read it used up (a 400)
      expect(refusals).toEqual(Array.from({ length: WANTING - 5 }, () => '409 COUPON_USED_UP'));
    } else {
      for (const r of refusals) expect(['409 COUPON_USED_UP', '400 COUPON_NOT_APPLICABLE']).toContain(r);
    }
  });

  it('one shopper racing many orders with a code allowed twice per customer gets exactly two', async () => {
    const p = await createProduct(t.app.db, { name: 'Per Customer Mug', countInStock: 1000 });
    const coupon = await createCoupon(t.app.db, { type: 'fixed', value: 100, perCustomerLimit: 2 });
    // the same person in several sessions, the address typed in different cases
    const sessions = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        guest(t.app.db, i % 2 ? 'Same.Shopper@example.com' : 'same.shopper@example.com'),
      ),
    );
    const results = await Promise.all(
      Array.from({ length: ORDERS / 4 }, (_, i) =>
        placeOrder(
          t.app,
          sessions[i % sessions.length]!,
          orderBody([{ product: p.id, qty: 1 }], { couponCode: coupon.code }),
        ),
      ),
    );
    expect(results.filter((r) => ![201, 400, 409].includes(r.statusCode)).map((r) => r.body)).toEqual([]);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(2);
    const [use] = await t.app.db.select().from(couponUses).where(eq(couponUses.couponId, coupon.id));
    expect(use).toMatchObject({ email: 'same.shopper@example.com', uses: 2 });
    const [code] = await t.app.db.select({ used: coupons.timesUsed }).from(coupons).where(eq(coupons.id, coupon.id));
    expect(code!.used).toBe(2);
  });
});
