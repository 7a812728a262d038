import { randomBytes } from 'node:crypto';
import { mulberry32 } from '@store/shared';

/** The seeded generator with the helpers the seeds need, so catalogues are reproducible. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** `n` distinct items (or all of them when there are fewer). */
  sample<T>(items: readonly T[], n: number): T[];
  /** `n` distinct items, like `sample`, in n draws whatever the length of the list (a few of many). */
  few<T>(items: readonly T[], n: number): T[];
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(next() * items.length)] as T;
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  };
  return {
    next,
    int,
    pick,
    chance: (p) => next() < p,
    shuffle,
    sample: (items, n) => shuffle(items).slice(0, n),
    few: <T>(items: readonly T[], n: number): T[] => {
      // the first n steps of a Fisher-Yates shuffle, with the swapped positions kept aside
      const moved = new Map<number, number>();
      const out: T[] = [];
      for (let i = 0; i < Math.min(n, items.length); i++) {
        const j = i + Math.floor(next() * (items.length - i));
        out.push(items[moved.get(j) ?? j] as T);
        moved.set(j, moved.get(i) ?? i);
      }
      return out;
    },
  };
}

/** Runs `worker` over `items` with at most `limit` running at once; answers results in input order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  worker: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let nextIndex = 0;
  const run = async () => {
    while (nextIndex < items.length) {
      const i = nextIndex++;
      results[i] = await worker(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
  return results;
}

/** Splits rows into chunks of `size` (for batched inserts). */
export function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Ids shaped like the app's (`newId`: 4 bytes of seconds, then 8 random bytes), drawn from a buffer of
 * random bytes refilled now and then: cheap enough for millions of rows.
 */
export function idSource(): () => string {
  let hex = '';
  let at = 0;
  return () => {
    if (at >= hex.length) {
      hex = randomBytes(8 * 8192).toString('hex');
      at = 0;
    }
    const seconds = Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, '0');
    at += 16;
    return seconds + hex.slice(at - 16, at);
  };
}

/**
 * A progress line every `everyMs` or so and at the end: how many of `total` are made, the time so far, the
 * rate, and (when given) how many rows they came to in all.
 */
export function progress(
  label: string,
  total: number,
  say: (line: string) => void,
  everyMs = 2000,
): (made: number, rows?: number) => void {
  const started = Date.now();
  let last = started;
  return (made, rows) => {
    const now = Date.now();
    if (made < total && now - last < everyMs) return;
    last = now;
    const s = Math.max((now - started) / 1000, 0.001);
    const all = rows === undefined ? '' : `, ${rows} rows, ${Math.round(rows / s)} rows/s`;
    say(`${label}: ${made}/${total} (${s.toFixed(1)} s, ${Math.round(made / s)} ${label}/s${all})`);
  };
}
