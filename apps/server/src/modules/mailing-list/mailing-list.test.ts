import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailingList } from '#server/db/schema/index.ts';
import { createTestApp, type TestContext } from '#test/helpers.ts';

let t: TestContext;
const subscribe = (payload: Record<string, unknown>, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/mailing-list/subscribe', payload, remoteAddress: ip });

describe('mailing list', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('subscribes once, whatever the case of the address or how often it is sent', async () => {
    expect((await subscribe({ email: 'Fan@Example.com', source: 'shipping_opt_in' })).json()).toEqual({
      message: 'Subscribed',
    });
    expect((await subscribe({ email: ' fan@example.COM ', source: 'shipping_opt_in' })).statusCode).toBe(200);
    const rows = await t.app.db.select().from(mailingList);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'fan@example.com', source: 'shipping_opt_in' });
  });

  it('validates the address', async () => {
    expect((await subscribe({ email: 'nope', source: 'x' })).json()).toEqual({
      message: 'Invalid email format',
      code: 'BAD_REQUEST',
    });
    expect((await subscribe({ source: 'x' })).json()).toEqual({ message: 'Email is required', code: 'BAD_REQUEST' });
  });
});
