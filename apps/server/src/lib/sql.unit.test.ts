import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { guestSessions, products } from '#server/db/schema/index.ts';
import { anyOf, literalLimit, parseIntegers } from './sql.ts';

const dialect = new PgDialect();
const render = (...args: Parameters<typeof anyOf>) => dialect.sqlToQuery(anyOf(...args));

describe('anyOf', () => {
  it('sends hex values as one array literal, cast to the column type, so the text is the same for any count', () => {
    const one = render(products.id, ['6b0609ae1997ab9734a4c426']);
    const three = render(products.id, ['aa', 'bb', 'cc']);
    expect(one.sql).toBe('"products"."id" = any($1::char(24)[])');
    expect(three.sql).toBe(one.sql);
    expect(three.params).toEqual(['{aa,bb,cc}']);
    expect(render(guestSessions.tokenHash, ['ab12']).sql).toBe('"guest_sessions"."token_hash" = any($1::char(64)[])');
    expect(render(products.id, [])).toEqual({ sql: one.sql, params: ['{}'], typings: expect.anything() });
  });

  it('sends any other value as a parameter of its own: nothing can break out of the literal', () => {
    const q = render(products.id, ['aa', 'x"}', 'AB']);
    expect(q.sql).toBe('"products"."id" in ($1, $2, $3)');
    expect(q.params).toEqual(['aa', 'x"}', 'AB']);
  });
});

describe('literalLimit', () => {
  it('writes the limit into the text, so every plan of a prepared statement sees it', () => {
    expect(dialect.sqlToQuery(literalLimit(250_001))).toMatchObject({ sql: 'limit 250001', params: [] });
  });

  it('takes only a positive safe integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => literalLimit(bad), String(bad)).toThrow(RangeError);
  });
});

describe('parseIntegers', () => {
  it('reads comma-separated integers as splitting and converting each would', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let k = 0; k < 200; k++) {
      const values = Array.from({ length: 1 + Math.floor(random() * 50) }, () =>
        Math.floor((random() - 0.3) * (random() < 0.1 ? 2 ** 31 : 100_000)),
      );
      const text = values.join(',');
      expect(Array.from(parseIntegers(text)), text).toEqual(text.split(',').map(Number));
    }
    expect(Array.from(parseIntegers('0'))).toEqual([0]);
    expect(Array.from(parseIntegers('-2147483648,2147483647'))).toEqual([-2147483648, 2147483647]);
  });
});
