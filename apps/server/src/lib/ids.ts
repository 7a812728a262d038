import { randomBytes } from 'node:crypto';

/** 24-hex ids shaped like MongoDB ObjectIds: 4 bytes of seconds, then 8 random bytes, so they sort by age. */
export function newId(): string {
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}
