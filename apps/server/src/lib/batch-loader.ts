/**
 * Coalesces lookups by key into few queries. With fewer than `maxInFlight` queries running, a key is
 * looked up at once (with the other keys asked for in the same tick); otherwise it waits for the next
 * query, which takes every key waiting then (up to `maxBatch`). So one request at a time costs what
 * it did, and a thousand requests at once cost a handful of queries instead of a thousand round trips.
 * Every answer is read after it was asked for: nothing is kept between lookups (this is not a cache).
 */
export function batchLoader<K, V>(
  fetchMany: (keys: K[]) => Promise<Map<K, V>>,
  opts: { maxInFlight: number; maxBatch: number } = { maxInFlight: 2, maxBatch: 500 },
): (key: K) => Promise<V | undefined> {
  const waiting = new Map<K, { resolve: (v: V | undefined) => void; reject: (err: unknown) => void }[]>();
  let inFlight = 0;
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    while (inFlight < opts.maxInFlight && waiting.size > 0) {
      const batch = new Map<K, { resolve: (v: V | undefined) => void; reject: (err: unknown) => void }[]>();
      for (const [key, callers] of waiting) {
        if (batch.size >= opts.maxBatch) break;
        batch.set(key, callers);
        waiting.delete(key);
      }
      inFlight++;
      fetchMany([...batch.keys()])
        .then(
          (found) => {
            for (const [key, callers] of batch) for (const c of callers) c.resolve(found.get(key));
          },
          (err: unknown) => {
            for (const callers of batch.values()) for (const c of callers) c.reject(err);
          },
        )
        .finally(() => {
          inFlight--;
          flush();
        });
    }
  };

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    });
}
