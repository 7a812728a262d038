import type { User } from '@store/shared';
import { ApiError } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';
import { clearGuestCookie, createGuest, fetchSession } from './api.ts';

export const GUEST_MESSAGES = {
  captcha: 'Please complete the captcha',
  failed: 'Guest checkout failed',
  afterNetwork: 'Guest creation failed after network restore issues',
} as const;

export class CaptchaNeededError extends Error {
  constructor() {
    super(GUEST_MESSAGES.captcha);
  }
}

const SESSION_ATTEMPTS = 2;
const noSession = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 404);

/**
 * Guest checkout: restore the guest of the cookie (two attempts); when the server knows none
 * (401/404) drop the cookie and create a guest with the captcha. The stored user carries no token.
 */
export async function startGuestCheckout(captcha: string | null): Promise<User> {
  let networkTrouble = false;
  for (let attempt = 1; attempt <= SESSION_ATTEMPTS; attempt++) {
    try {
      const user = await fetchSession();
      if (user?.isGuest) {
        useAuth.getState().setUserInfo({ ...user, isGuest: true });
        return user;
      }
      break;
    } catch (err) {
      if (noSession(err)) break;
      networkTrouble = true; // a network or server hiccup: ask once more, then start afresh
    }
  }
  if (!captcha) throw new CaptchaNeededError();
  await clearGuestCookie();
  try {
    const user = await createGuest(captcha);
    useAuth.getState().setUserInfo({ ...user, isGuest: true });
    return user;
  } catch (err) {
    // the server's own reason when it gave one; no answer or no reason: the checkout's words
    const explained = err instanceof ApiError && err.explained;
    if (networkTrouble && !explained) throw new Error(GUEST_MESSAGES.afterNetwork);
    throw explained ? err : new Error(GUEST_MESSAGES.failed);
  }
}
