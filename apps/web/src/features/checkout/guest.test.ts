import { afterEach, describe, expect, it, vi } from 'vitest';
import { GUEST_MESSAGES, startGuestCheckout } from './guest.ts';

vi.mock('#web/lib/auth.ts', () => ({ useAuth: { getState: () => ({ setUserInfo: () => undefined }) } }));

const answer = (status: number, body: unknown) =>
  new Response(body === undefined ? '' : JSON.stringify(body), { status });

describe('guest checkout failures', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says the guest could not be created after the network failed, not "Failed to fetch"', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(startGuestCheckout('payload')).rejects.toThrow(GUEST_MESSAGES.afterNetwork);
  });

  it("says 'Guest checkout failed' when the server gives no reason, and the server's reason when it does", async () => {
    const noSession = () => answer(401, { message: 'No session', code: 'NO_TOKEN' });
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => Promise.resolve(url.endsWith('/api/users/guest') ? answer(500, undefined) : noSession())),
    );
    await expect(startGuestCheckout('payload')).rejects.toThrow(GUEST_MESSAGES.failed);
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) =>
        Promise.resolve(
          url.endsWith('/api/users/guest')
            ? answer(400, { message: 'Captcha failed', code: 'CAPTCHA_FAILED' })
            : noSession(),
        ),
      ),
    );
    await expect(startGuestCheckout('payload')).rejects.toThrow('Captcha failed');
  });
});
