import { describe, expect, it } from 'vitest';
import { SoldOut, StockGate, type StockInfo } from './stock-gate.ts';

const P = 'a'.repeat(24);
const Q = 'b'.repeat(24);
const read = (stock: Record<string, number>) => async () =>
  new Map<string, StockInfo>(Object.entries(stock).map(([id, n]) => [id, { stock: n, name: `Product ${id[0]}` }]));
const need = (qty: number, pool = P) => [{ pool, qty }];
const settled = async <T>(p: Promise<T>) => {
  const marker = Symbol('pending');
  const r = await Promise.race([
    p.then(
      (v) => ({ v }),
      (e: unknown) => ({ e }),
    ),
    new Promise((r) => setTimeout(() => r(marker), 20)),
  ]);
  return r === marker ? 'pending' : (r as { v?: T; e?: unknown });
};

describe('StockGate: orders for the last units', () => {
  it('admits an order when the stock read after it arrived covers it and the units in flight', async () => {
    const gate = new StockGate();
    const release = await gate.admit(need(2), read({ [P]: 5 }));
    expect(gate.inFlight(P)).toBe(2);
    release(new Map([[P, { stock: 3, name: 'Product a' }]]));
    expect(gate.inFlight(P)).toBe(0);
  });

  it('refuses at once when the stock read is already short, naming the product', async () => {
    const gate = new StockGate();
    await expect(gate.admit(need(3), read({ [P]: 2 }))).rejects.toEqual(new SoldOut('Product a', P));
    expect(gate.inFlight(P)).toBe(0);
    expect(gate.remembered()).toBe(0); // nothing kept about a product nobody is ordering
  });

  it('holds an order the units in flight may take, and refuses it once they are sold', async () => {
    const gate = new StockGate();
    const first = await gate.admit(need(1), read({ [P]: 1 }));
    const second = gate.admit(need(1), read({ [P]: 1 }));
    expect(await settled(second)).toBe('pending');
    expect(gate.held()).toBe(1);
    first(new Map([[P, { stock: 0, name: 'Product a' }]])); // committed: none left
    const out = await settled(second);
    expect(out).toMatchObject({ e: new SoldOut('Product a', P) });
    expect(gate.held()).toBe(0);
    expect(gate.remembered()).toBe(0);
  });

  it('admits a held order when the order in flight fails and gives its units back', async () => {
    const gate = new StockGate();
    const first = await gate.admit(need(1), read({ [P]: 1 }));
    const second = gate.admit(need(1), read({ [P]: 1 }));
    expect(await settled(second)).toBe('pending');
    first(); // failed (no outcome): its unit was never taken
    const out = await settled(second);
    expect(out).not.toBe('pending');
    expect(typeof (out as { v: unknown }).v).toBe('function');
    expect(gate.inFlight(P)).toBe(1);
  });

  it('lets exactly as many held orders through as units are left, in arrival order', async () => {
    const gate = new StockGate();
    const first = await gate.admit(need(3), read({ [P]: 5 }));
    const rest = Array.from({ length: 6 }, () => gate.admit(need(1), read({ [P]: 5 })));
    const now = await Promise.all(rest.map(settled));
    // 5 units, 3 in flight: two more fit at once, four are held
    expect(now.filter((r) => r === 'pending')).toHaveLength(4);
    first(); // failed: 3 units back, three held orders fit, one is still held
    const after = await Promise.all(rest.map(settled));
    expect(after.filter((r) => r === 'pending')).toHaveLength(1);
    expect(gate.inFlight(P)).toBe(5);
  });

  it('never refuses on a stock seen before the order arrived (a restock by any means is honoured)', async () => {
    const gate = new StockGate();
    await expect(gate.admit(need(1), read({ [P]: 0 }))).rejects.toBeInstanceOf(SoldOut);
    // restocked behind the store's back (no drop): the next order reads 4 and is admitted
    const release = await gate.admit(need(1), read({ [P]: 4 }));
    expect(gate.inFlight(P)).toBe(1);
    release();
  });

  it('sends held orders to the database on drop() (a catalogue write may have restocked)', async () => {
    const gate = new StockGate();
    const first = await gate.admit(need(1), read({ [P]: 1 }));
    const second = gate.admit(need(1), read({ [P]: 1 }));
    expect(await settled(second)).toBe('pending');
    gate.drop();
    expect(typeof ((await settled(second)) as { v: unknown }).v).toBe('function');
    first();
  });

  it('sends a held order to the database after waitMs', async () => {
    const gate = new StockGate({ waitMs: 30 });
    const first = await gate.admit(need(1), read({ [P]: 1 }));
    const second = gate.admit(need(1), read({ [P]: 1 }));
    expect(typeof (await second)).toBe('function');
    first();
  });

  it('decides orders for several products on all of them', async () => {
    const gate = new StockGate();
    const both = [
      { pool: P, qty: 1 },
      { pool: Q, qty: 2 },
    ];
    await expect(gate.admit(both, read({ [P]: 9, [Q]: 1 }))).rejects.toEqual(new SoldOut('Product b', Q));
    const release = await gate.admit(both, read({ [P]: 9, [Q]: 2 }));
    expect([gate.inFlight(P), gate.inFlight(Q)]).toEqual([1, 2]);
    release();
    expect([gate.inFlight(P), gate.inFlight(Q)]).toEqual([0, 0]);
  });

  it('decides an order held for two products once, whichever frees first', async () => {
    const gate = new StockGate();
    const a = await gate.admit(need(1, P), read({ [P]: 1, [Q]: 1 }));
    const b = await gate.admit(need(1, Q), read({ [P]: 1, [Q]: 1 }));
    const both = gate.admit(
      [
        { pool: P, qty: 1 },
        { pool: Q, qty: 1 },
      ],
      read({ [P]: 1, [Q]: 1 }),
    );
    expect(await settled(both)).toBe('pending');
    gate.drop(); // held on both products: sent to the database once
    const release = (await both) as (o?: unknown) => void;
    expect([gate.inFlight(P), gate.inFlight(Q)]).toEqual([2, 2]);
    release();
    a();
    b();
    expect([gate.inFlight(P), gate.inFlight(Q)]).toEqual([0, 0]);
  });

  describe('a discount code limited to N uses (a pool nothing reads before admission)', () => {
    const C = 'code:SAVE10';
    const withCode = (qty = 1) => [
      { pool: P, qty },
      { pool: C, qty: 1 },
    ];
    const usedUp = new Map([[C, { stock: 0, name: 'SAVE10' }]]);

    it('admits and holds code orders by the units alone until one reports the code used up', async () => {
      const gate = new StockGate();
      const first = await gate.admit(withCode(), read({ [P]: 2 }));
      const second = await gate.admit(withCode(), read({ [P]: 2 }));
      expect(gate.inFlight(P)).toBe(2);
      first(new Map([[P, { stock: 1, name: 'Product a' }]])); // committed with the code: nothing said of it
      second();
      expect(gate.remembered()).toBe(0);
    });

    it('refuses at once every held order carrying the code once an order reports it used up', async () => {
      const gate = new StockGate();
      const admitted = await gate.admit(withCode(), read({ [P]: 1 }));
      const heldWithCode = [gate.admit(withCode(), read({ [P]: 1 })), gate.admit(withCode(), read({ [P]: 1 }))];
      const heldWithout = gate.admit(need(1), read({ [P]: 1 }));
      expect(await Promise.all([...heldWithCode, heldWithout].map(settled))).toEqual(['pending', 'pending', 'pending']);
      expect(gate.held()).toBe(3);
      admitted(usedUp); // refused in the database: the code had no use left; its unit was never taken
      for (const held of heldWithCode) expect(await settled(held)).toMatchObject({ e: new SoldOut('SAVE10', C) });
      // the order without the code takes the unit the refused one gave back
      const release = (await settled(heldWithout)) as { v: (o?: unknown) => void };
      expect(typeof release.v).toBe('function');
      expect(gate.inFlight(P)).toBe(1);
      release.v();
      expect(gate.remembered()).toBe(0);
    });

    it('never refuses an order that arrived after the code was reported used up (the limit may be raised)', async () => {
      const gate = new StockGate();
      const admitted = await gate.admit(withCode(), read({ [P]: 5 }));
      const keep = await gate.admit(withCode(), read({ [P]: 5 })); // keeps the code's report alive
      admitted(usedUp);
      const later = await gate.admit(withCode(), read({ [P]: 5 }));
      expect(gate.inFlight(C)).toBe(2);
      later();
      keep();
    });
  });
});
