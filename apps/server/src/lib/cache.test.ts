import { describe, expect, it } from 'vitest';
import { AnswerCache } from './cache.ts';

describe('answer cache', () => {
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
});
