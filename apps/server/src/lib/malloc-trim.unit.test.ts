import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { trimAfterFullCollections } from './malloc-trim.ts';

// a full collection on demand (the test process does not run with --expose-gc)
setFlagsFromString('--expose-gc');
const fullGc = runInNewContext('gc') as () => void;

describe("giving the C heap's free pages back", () => {
  it('trims after a full collection, at most once per interval', async () => {
    const trimming = trimAfterFullCollections(200);
    try {
      expect(trimming.trims).toBe(0);
      fullGc();
      await expect.poll(() => trimming.trims, { timeout: 2000 }).toBe(1);
      // collections within the interval: one more trim when it has passed, not one each
      fullGc();
      fullGc();
      fullGc();
      await expect.poll(() => trimming.trims, { timeout: 2000 }).toBe(2);
      await new Promise((r) => setTimeout(r, 400));
      expect(trimming.trims).toBe(2);
    } finally {
      trimming.stop();
    }
  });

  it('stops observing: no trim after stop()', async () => {
    const trimming = trimAfterFullCollections(0);
    trimming.stop();
    fullGc();
    await new Promise((r) => setTimeout(r, 200));
    expect(trimming.trims).toBe(0);
  });
});
