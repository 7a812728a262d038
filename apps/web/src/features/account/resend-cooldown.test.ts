import { RESEND_COOLDOWN_KEY, RESEND_COOLDOWN_S } from '@store/shared';
import { describe, expect, it } from 'vitest';
import { readResendCooldown, startResendCooldown } from './resend-cooldown.ts';

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
  };
}

describe('the confirmation e-mail cooldown', () => {
  it('runs RESEND_COOLDOWN_S from a send, kept in storage across reloads', () => {
    const storage = memoryStorage();
    const now = 1_700_000_000_000;
    expect(readResendCooldown(storage, now)).toBeNull();
    const endsAt = startResendCooldown(storage, now);
    expect(endsAt).toBe(now + RESEND_COOLDOWN_S * 1000);
    expect(storage.data.get(RESEND_COOLDOWN_KEY)).toBe(String(endsAt));
    expect(readResendCooldown(storage, now + 1000)).toBe(endsAt);
    expect(readResendCooldown(storage, endsAt)).toBeNull();
  });

  it('ignores garbage and still counts down when storage is blocked', () => {
    const storage = memoryStorage();
    storage.setItem(RESEND_COOLDOWN_KEY, 'soon');
    expect(readResendCooldown(storage)).toBeNull();
    const blocked = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('blocked');
      },
    };
    expect(startResendCooldown(blocked, 5)).toBe(5 + RESEND_COOLDOWN_S * 1000);
    expect(readResendCooldown(blocked)).toBeNull();
  });
});
