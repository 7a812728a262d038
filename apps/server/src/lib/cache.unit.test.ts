import { describe, expect, it, vi } from 'vitest';
import zlib from 'node:zlib';
import { AnswerCache, CachedAnswer, negotiateEncoding } from './cache.ts';

describe('answer cache', () => {
  it('an order drops only the answers showing the stock of its products', async () => {
    const cache = new AnswerCache(60_000, 10);
    let calls = 0;
    const answer = (key: string, products?: string[]) =>
      cache.get(key, async () => `${key}${++calls}`, products ? () => products : undefined);
    await answer('list-ab', ['a', 'b']);
    await answer('list-cd', ['c', 'd']);
    await answer('categories', []);
    await answer('unknown');
    const reasons: string[] = [];
    cache.onDrop((r) => reasons.push(r));
    await cache.invalidate('stock-taken', ['b']);
    expect(reasons).toEqual(['stock-taken']);
    expect(await answer('list-ab', ['a', 'b'])).toBe('"list-ab5"'); // showed b: read again
    expect(await answer('list-cd', ['c', 'd'])).toBe('"list-cd2"'); // kept
    expect(await answer('categories', [])).toBe('"categories3"'); // shows no stock: kept
    expect(await answer('unknown')).toBe('"unknown6"'); // may show anything: read again
    await cache.invalidate(); // any other write drops everything
    expect(await answer('list-cd', ['c', 'd'])).toBe('"list-cd7"');
  });

  it('does not keep an answer read while an order took stock it shows; keeps one it does not show', async () => {
    const cache = new AnswerCache(60_000, 10);
    let calls = 0;
    // reads an answer showing `shown` while an order for 'a' lands, then asks for it again
    const readDuringOrder = async (key: string, shown: string) => {
      await cache.get(
        key,
        async () => {
          await cache.invalidate('stock-taken', ['a']);
          return ++calls;
        },
        () => [shown],
      );
      return cache.get(
        key,
        async () => ++calls,
        () => [shown],
      );
    };
    expect(await readDuringOrder('shows-a', 'a')).toBe('2'); // read again
    expect(await readDuringOrder('shows-b', 'b')).toBe('3'); // kept: the third read was the first of shows-b
  });

  it('serves a kept answer until it expires or is invalidated', async () => {
    const cache = new AnswerCache(60_000, 10);
    let calls = 0;
    const produce = async () => ({ n: ++calls });
    expect(await cache.get('k', produce)).toBe('{"n":1}');
    expect(await cache.get('k', produce)).toBe('{"n":1}');
    cache.invalidate();
    expect(await cache.get('k', produce)).toBe('{"n":2}');
  });

  it('does not keep an answer produced across a write', async () => {
    const cache = new AnswerCache(60_000, 10);
    let calls = 0;
    await cache.get('k', async () => {
      cache.invalidate(); // a write lands while the answer is being read
      return ++calls;
    });
    expect(await cache.get('k', async () => ++calls)).toBe('2');
  });

  it('never holds more than its limit', async () => {
    const cache = new AnswerCache(60_000, 2);
    let calls = 0;
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => ++calls);
    expect(await cache.get('a', async () => 'fresh')).toBe('"fresh"');
  });

  it('expires answers after their time', async () => {
    const cache = new AnswerCache(1, 10);
    await cache.get('k', async () => 'old');
    await new Promise((r) => setTimeout(r, 5));
    expect(await cache.get('k', async () => 'new')).toBe('"new"');
  });

  it('gives the memory of expired answers back without being asked again, and then stops sweeping', async () => {
    vi.useFakeTimers();
    try {
      const cache = new AnswerCache(1000, 10);
      await cache.get('a', async () => 'x'.repeat(5000));
      vi.advanceTimersByTime(600);
      await cache.get('b', async () => 'y'.repeat(5000));
      expect(cache.held).toEqual({ answers: 2, bytes: 10_004 });
      vi.advanceTimersByTime(500); // the sweep at 1,000: a is past its time, b is not
      expect(cache.held.answers).toBe(1);
      // a kept again goes behind b: the map stays in the order answers expire in
      await cache.get('a', async () => 'z');
      vi.advanceTimersByTime(950); // the sweep at 2,000: b (kept till 1,600) goes, a (till 2,100) stays
      expect(cache.held).toEqual({ answers: 1, bytes: 3 });
      expect(await cache.get('a', async () => 'other')).toBe('"z"');
      vi.advanceTimersByTime(1000);
      expect(cache.held).toEqual({ answers: 0, bytes: 0 });
      expect(vi.getTimerCount()).toBe(0); // nothing kept: no timer left running
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps each coding of an answer, compressed once, decoding to exactly the JSON', async () => {
    const cache = new AnswerCache(60_000, 10);
    const big = { items: Array.from({ length: 100 }, (_, i) => ({ i, name: `Product ${i} — ünïcode` })) };
    const answer = await cache.entry('k', async () => big);
    const json = JSON.stringify(big);
    expect(answer.value).toBe(json);
    const br = answer.encoded('br');
    expect(br.encoding).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(json);
    expect(answer.encoded('br').body).toBe(br.body); // the same bytes, not compressed again
    const gzip = answer.encoded('gzip');
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(json);
    expect(answer.encoded('identity').body.toString()).toBe(json);
    expect((await cache.entry('k', async () => big)).encoded('br').body).toBe(br.body);
    await cache.invalidate();
    expect((await cache.entry('k', async () => big)).encoded('br').body).not.toBe(br.body);
  });

  it('sends small answers as they are', () => {
    expect(new CachedAnswer('{"n":1}').encoded('br')).toEqual({ body: Buffer.from('{"n":1}'), encoding: 'identity' });
  });

  it('negotiates Accept-Encoding: highest weight, brotli first on a tie, identity otherwise', () => {
    expect(negotiateEncoding(undefined)).toBe('identity');
    expect(negotiateEncoding('')).toBe('identity');
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateEncoding('GZIP')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(negotiateEncoding('*;q=0, identity')).toBe('identity');
    expect(negotiateEncoding('deflate')).toBe('identity');
    expect(negotiateEncoding('identity;q=1, br;q=0.5')).toBe('identity');
    expect(negotiateEncoding('identity;q=0.5, br')).toBe('br');
  });

  it('shares one produce() between concurrent misses of a key, but not across a write', async () => {
    const cache = new AnswerCache(60_000, 10);
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = async () => {
      const n = ++calls;
      await gate;
      return n;
    };
    const first = [cache.get('k', slow), cache.get('k', slow), cache.get('k', slow)];
    await cache.invalidate(); // a write: later misses must not join the flight that began before it
    const after = cache.get('k', slow);
    release();
    expect(await Promise.all(first)).toEqual(['1', '1', '1']);
    expect(await after).toBe('2');
    expect(calls).toBe(2);
    // a failure reaches every waiter and is not kept
    const failing = async () => {
      throw new Error('boom');
    };
    const failed = await Promise.allSettled([cache.get('x', failing), cache.get('x', failing)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await cache.get('x', async () => 'ok')).toBe('"ok"');
  });
});
