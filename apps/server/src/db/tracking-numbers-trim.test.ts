import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '#server/db/client.ts';
import { trackingNumbers } from '#server/db/schema/index.ts';
import { createAccount } from '#test/accounts.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder } from '#test/orders-support.ts';

let t: TestContext;

describe('migration: tracking numbers saved before normalisation', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('loses its white space and is upper-cased, as the ship form stores numbers now', async () => {
    const admin = await createAccount(t, { isAdmin: true });
    const buyer = await createAccount(t, { email: 'old-numbers@example.com' });
    const lamp = await createProduct(t.app.db, { name: 'Lamp' });
    const order = (await placeOrder(t.app, buyer, orderBody([{ product: lamp.id, qty: 1 }]))).json();
    await t.app.inject({ method: 'PUT', url: `/api/orders/${order._id}/pay`, headers: buyer.headers, payload: {} });
    const shipped = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${order._id}/ship`,
      headers: admin.headers,
      payload: { trackingNumbers: [{ number: '1Z999AA10123456784', trackingItem: ['Lamp'] }] },
    });
    expect(shipped.statusCode).toBe(200);
    // as an older release stored it
    await t.app.db.update(trackingNumbers).set({ number: ' 1z 999 aa1\t0123456784 ' });

    const file = readFileSync(path.join(MIGRATIONS_DIR, '0013_tracking_numbers_trim.sql'), 'utf8');
    await t.app.db.execute(sql.raw(file));

    const rows = await t.app.db.select({ number: trackingNumbers.number }).from(trackingNumbers);
    expect(rows).toEqual([{ number: '1Z999AA10123456784' }]);
    const [stored] = await t.app.db
      .select()
      .from(trackingNumbers)
      .where(eq(trackingNumbers.number, '1Z999AA10123456784'));
    expect(stored).toBeDefined();
  });
});
