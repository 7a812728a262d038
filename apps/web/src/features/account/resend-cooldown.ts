import { RESEND_COOLDOWN_KEY, RESEND_COOLDOWN_S } from '@store/shared';

type CooldownStorage = Pick<Storage, 'getItem' | 'setItem'>;

function browserStorage(): CooldownStorage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The cooldown between confirmation e-mails: it starts when one is sent (by the registration itself or by a
 * resend) and lasts RESEND_COOLDOWN_S; its end is kept across reloads. Answers when it ends (ms epoch),
 * or null when none runs.
 */
export function readResendCooldown(storage = browserStorage(), now = Date.now()): number | null {
  try {
    const n = Number(storage?.getItem(RESEND_COOLDOWN_KEY));
    return Number.isFinite(n) && n > now ? n : null;
  } catch {
    return null;
  }
}

/** Starts the cooldown (a confirmation e-mail was just sent); answers when it ends. */
export function startResendCooldown(storage = browserStorage(), now = Date.now()): number {
  const endsAt = now + RESEND_COOLDOWN_S * 1000;
  try {
    storage?.setItem(RESEND_COOLDOWN_KEY, String(endsAt));
  } catch {
    /* blocked storage: the countdown still runs for this visit */
  }
  return endsAt;
}
