/**
 * Gives the C heap's free pages back to the system after V8's full garbage collections.
 *
 * A Buffer's bytes live outside V8's heap, in memory from glibc's malloc. The answers the store keeps for a
 * few seconds (JSON and its compressed copies) outlive V8's young generation, so they are freed only at
 * the next full collection, by then scattered among live allocations. glibc gives back only the free
 * memory at the top of its heap: at 1,000,000 products, after a load, its main heap held 90–117 MB of which
 * 8–11 MB was in use, and one `malloc_trim(0)` took the process from 326 to 227 MB resident.
 *
 * After a full collection (seen through `perf_hooks`), `malloc_trim(0)` is called through koffi (a C
 * function interface with prebuilt binaries), at most once per `minIntervalMs`. Where there is no glibc
 * (another OS, or a musl-based image) nothing is done.
 */

import { createRequire } from 'node:module';
import { PerformanceObserver, constants } from 'node:perf_hooks';

/** The trimming of one process: how many trims so far, and a way to stop. */
export interface MallocTrim {
  /** How many times the heap was trimmed (tests read it). */
  readonly trims: number;
  stop(): void;
}

type Trim = (pad: number) => number;

function loadTrim(): Trim | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const require = createRequire(import.meta.url);
    const koffi = require('koffi') as { load(path: string): { func(signature: string): Trim } };
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
  } catch {
    return undefined; // no glibc: its allocator's behaviour does not apply
  }
}

export function trimAfterFullCollections(minIntervalMs = 10_000): MallocTrim {
  const trim = loadTrim();
  const state = { trims: 0, stop: () => {} };
  if (!trim) return state;
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  const observer = new PerformanceObserver((list) => {
    if (timer) return;
    const full = list
      .getEntries()
      .some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        last = Date.now();
        trim(0);
        state.trims++;
      },
      Math.max(0, last + minIntervalMs - Date.now()),
    );
    timer.unref();
  });
  observer.observe({ entryTypes: ['gc'] });
  state.stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  return state;
}
