/**
 * Coalesces writes into few statements, each write keeping its own outcome. With fewer than `maxInFlight`
 * statements running, a write goes at once (with the other writes handed in the same tick); otherwise it
 * waits for the next statement, which takes every write waiting then (up to `maxBatch`). So one write at a
 * time costs what it did, and many at once share a statement, a transaction and its commit.
 *
 * `writeMany(items)` writes all of its items or none (one statement) and answers one result per item, in
 * their order. When a batch of several fails, each of its items is written again alone (concurrently):
 * one item's refusal (a pool out of stock, a constraint) is then that item's answer, and the others are
 * written as if they had come alone. An item written alone settles with exactly what its statement gave.
 */
export function batchWriter<I, R>(
  writeMany: (items: I[]) => Promise<R[]>,
  opts: { maxInFlight: number; maxBatch: number },
): (item: I) => Promise<R> {
  type Waiting = { item: I; resolve: (r: R) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  const alone = (w: Waiting) =>
    writeMany([w.item]).then(
      ([r]) => w.resolve(r!),
      (err: unknown) => w.reject(err),
    );

  const write = async (batch: Waiting[]) => {
    if (batch.length === 1) return alone(batch[0]!);
    let results: R[];
    try {
      results = await writeMany(batch.map((w) => w.item));
    } catch {
      // nothing of the batch was written: each item is decided on its own
      await Promise.all(batch.map(alone));
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  };

  const flush = () => {
    scheduled = false;
    while (inFlight < opts.maxInFlight && waiting.length > 0) {
      const batch = waiting.slice(0, opts.maxBatch);
      waiting = waiting.slice(batch.length);
      inFlight++;
      void write(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    });
}
