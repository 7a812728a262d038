import { randomFillSync } from 'node:crypto';

// random bytes drawn from the system 4 KB at a time: one call per 512 ids instead of one per id
const POOL = Buffer.alloc(4096);
let used = POOL.length;

/** 24-hex ids shaped like MongoDB ObjectIds: 4 bytes of seconds, then 8 random bytes, so they sort by age. */
export function newId(): string {
  if (used === POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  const id = seconds + POOL.toString('hex', used, used + 8);
  used += 8;
  return id;
}
