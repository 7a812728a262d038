import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '#server/db/schema/index.ts';
import { newId } from '#server/lib/ids.ts';
import { createProduct } from '#test/factories.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';
import { orderBody, placeOrder, signedIn, usAddress, type Auth } from '#test/orders-support.ts';
import { ORDER_CSV_COLUMNS } from './orders-export.service.ts';

let t: TestContext;
let admin: Auth;
const HEADER =
  'orderNumber,_id,createdAt,email,firstName,lastName,isGuest,items,itemsPrice,discountPrice,couponCode,taxPrice,shippingPrice,totalPrice,isPaid,paidAt,isShipped,shippedAt,isDelivered,deliveredAt,isCancelled,cancelledAt,refundedPrice,shippingAddress';
type Row = Record<(typeof ORDER_CSV_COLUMNS)[number], string>;

const exportCsv = (query = '', auth: Auth = admin) =>
  t.app.inject({ method: 'GET', url: `/api/orders/export${query}`, headers: auth.headers });
const rowsOf = (csv: string): Row[] => parse(csv, { columns: true }) as Row[];

describe('orders as CSV', () => {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t.app, { isAdmin: true });
  });
  afterAll(async () => t?.close());

  it('is for admins only: 401 without a token, 403 for others', async () => {
    expect((await exportCsv('', { headers: {} })).statusCode).toBe(401);
    const res = await exportCsv('', await signedIn(t.app));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Not authorized as an admin', code: 'FORBIDDEN' });
  });

  it('answers one row per order the filters select (paid=yes here), with the columns of the export', async () => {
    const mug = await createProduct(t.app.db, {
      name: 'Mug',
      priceCents: 1000,
      countInStock: 50,
      variants: [{ name: 'Blue' }],
    });
    const lamp = await createProduct(t.app.db, { name: 'Lamp, "tall"', priceCents: 2550, countInStock: 50 });
    const buyer = await signedIn(t.app, { firstName: 'Ada', lastName: 'Lovelace' });
    const address = { ...usAddress, address2: 'Apt 2' };
    const paid = await placeOrder(
      t.app,
      buyer,
      orderBody(
        [
          { product: mug.id, qty: 2, selectedColorsVariants: mug.variantRows[0]!.id },
          { product: lamp.id, qty: 1 },
        ],
        { shippingAddress: address },
      ),
    );
    expect(paid.statusCode).toBe(201);
    const paidId = paid.json()._id as string;
    const pay = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${paidId}/pay`,
      headers: buyer.headers,
      payload: {},
    });
    expect(pay.statusCode).toBe(200);
    const unpaid = await placeOrder(t.app, buyer, orderBody([{ product: lamp.id, qty: 3 }]));
    expect(unpaid.statusCode).toBe(201);

    const res = await exportCsv('?paid=yes');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.body.split('\n')[0]).toBe(HEADER);
    const rows = rowsOf(res.body);
    expect(rows.map((r) => r._id)).toEqual([paidId]);
    const order = (await t.app.inject({ url: `/api/orders/${paidId}`, headers: admin.headers })).json();
    expect(rows[0]).toEqual({
      orderNumber: String(order.orderNumber),
      _id: paidId,
      createdAt: order.createdAt,
      email: buyer.user.email,
      firstName: 'Ada',
      lastName: 'Lovelace',
      isGuest: 'false',
      // the items in the order the order page lists them
      items: order.orderItems
        .map((i: { qty: number; name: string }) => `${i.qty} x ${i.name}${i.name === 'Mug' ? ' (Blue)' : ''}`)
        .join('; '),
      itemsPrice: '45.5',
      discountPrice: '0',
      couponCode: '',
      taxPrice: String(order.taxPrice),
      shippingPrice: String(order.shippingPrice),
      totalPrice: String(order.totalPrice),
      isPaid: 'true',
      paidAt: order.paidAt,
      isShipped: 'false',
      shippedAt: '',
      isDelivered: 'false',
      deliveredAt: '',
      isCancelled: 'false',
      cancelledAt: '',
      refundedPrice: '0',
      shippingAddress: 'Ada Lovelace, 1 Main St, Apt 2, Springfield, IL 62701, US',
    });
    expect(rows[0]!.items.split('; ').sort()).toEqual(['1 x Lamp, "tall"', '2 x Mug (Blue)']);
    // the items cell holds a comma and quotes: quoted, its quotes doubled
    expect(res.body).toContain(`,"${rows[0]!.items.replace(/"/g, '""')}",`);

    const unpaidRows = rowsOf((await exportCsv('?paid=no')).body);
    expect(unpaidRows.map((r) => r._id)).toContain(unpaid.json()._id);
    expect(unpaidRows.map((r) => r._id)).not.toContain(paidId);
    // the same filters as the admin list
    const listed = (await t.app.inject({ url: '/api/orders?paid=no&pageSize=100', headers: admin.headers })).json();
    expect(unpaidRows.map((r) => r._id)).toEqual(listed.orders.map((o: { _id: string }) => o._id));
  });

  it('puts a quote before formula-looking cells', async () => {
    const p = await createProduct(t.app.db, { name: '=HYPERLINK("http://evil.example")', countInStock: 5 });
    const buyer = await signedIn(t.app, { firstName: '@Eve', lastName: '-Doe' });
    const res = await placeOrder(t.app, buyer, orderBody([{ product: p.id, qty: 1 }]));
    expect(res.statusCode).toBe(201);
    const row = rowsOf((await exportCsv(`?id=${res.json()._id}`)).body)[0]!;
    expect(row).toMatchObject({ firstName: "'@Eve", lastName: "'-Doe" });
    expect(row.items).toBe('1 x =HYPERLINK("http://evil.example")'); // starts with a digit: left as it is
  });

  it('refuses a bad filter with a 400 before sending anything', async () => {
    const res = await exportCsv('?dateFrom=not-a-date');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().code).toBe('BAD_REQUEST');
    expect((await exportCsv('?paid=maybe')).statusCode).toBe(400);
    // paging is not a filter of the export
    expect((await exportCsv('?pageSize=5')).statusCode).toBe(200);
  });

  it('pages through many orders placed at the same instant: each once, newest first', async () => {
    const buyer = await signedIn(t.app);
    const at = new Date('2030-01-02T03:04:05.678Z');
    const values = Array.from({ length: 1234 }, () => ({
      id: newId(),
      userId: buyer.user.id,
      email: buyer.user.email!,
      shippingAddress: usAddress,
      itemsCents: 100,
      taxCents: 15,
      shippingCents: 0,
      totalCents: 115,
      createdAt: at,
    }));
    for (let i = 0; i < values.length; i += 500) await t.app.db.insert(orders).values(values.slice(i, i + 500));
    const rows = rowsOf((await exportCsv('?dateFrom=2030-01-02&dateTo=2030-01-02')).body);
    expect(rows).toHaveLength(1234);
    const ids = rows.map((r) => r._id);
    expect(new Set(ids).size).toBe(1234);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(rows.every((r) => r.createdAt === at.toISOString() && r.items === '')).toBe(true);
  });
});
