import { AUTH_MESSAGES } from '@store/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  api,
  ApiError,
  errorFromResponse,
  failureText,
  hasErrorCode,
  NETWORK_FAILED,
  setTokenFailedHandler,
  TOKEN_FAILED,
} from './api.ts';

describe('errorFromResponse', () => {
  const onTokenFailed = vi.fn();
  setTokenFailedHandler(onTokenFailed);
  afterEach(() => onTokenFailed.mockClear());

  it("carries the server's message and a known code", () => {
    const err = errorFromResponse(409, { message: 'Out of stock', code: 'OUT_OF_STOCK' });
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'Out of stock', status: 409, code: 'OUT_OF_STOCK', explained: true });
  });

  it('keeps a code as sent, and says so when the server gave no message', () => {
    expect(errorFromResponse(400, { message: 'Bad', code: 'SOMETHING_NEW' }).code).toBe('SOMETHING_NEW');
    expect(errorFromResponse(400, { message: 'Bad', code: 7 }).code).toBeUndefined();
    const err = errorFromResponse(502, undefined);
    expect(err).toMatchObject({ message: 'Request failed (502)', status: 502, explained: false });
  });

  it('signs out when a sent token is refused, by code or (from an older server) by message', () => {
    errorFromResponse(401, { message: 'whatever', code: 'TOKEN_FAILED' });
    errorFromResponse(401, { message: AUTH_MESSAGES.tokenFailed });
    expect(onTokenFailed).toHaveBeenCalledTimes(2);
  });

  it('does not sign out for other refusals or when no token was sent', () => {
    errorFromResponse(401, { message: AUTH_MESSAGES.noToken, code: 'NO_TOKEN' });
    errorFromResponse(401, { message: AUTH_MESSAGES.tokenFailed, code: 'TOKEN_FAILED' }, false);
    errorFromResponse(403, { message: AUTH_MESSAGES.tokenFailed, code: 'TOKEN_FAILED' });
    expect(onTokenFailed).not.toHaveBeenCalled();
  });
});

it('uses the shared message of a refused token', () => {
  expect(TOKEN_FAILED).toBe(AUTH_MESSAGES.tokenFailed);
});

describe('hasErrorCode', () => {
  it('decides on the code, with an optional fallback on the message', () => {
    const coded = new ApiError('Please confirm your email address', 401, 'EMAIL_UNCONFIRMED');
    const uncoded = new ApiError('Please confirm your email address', 401);
    const confirm = (m: string) => m.includes('confirm your email');
    expect(hasErrorCode(coded, 'EMAIL_UNCONFIRMED')).toBe(true);
    expect(hasErrorCode(uncoded, 'EMAIL_UNCONFIRMED')).toBe(false);
    expect(hasErrorCode(uncoded, 'EMAIL_UNCONFIRMED', confirm)).toBe(true);
    expect(hasErrorCode(new Error('Please confirm your email address'), 'EMAIL_UNCONFIRMED', confirm)).toBe(false);
    expect(hasErrorCode(null, 'EMAIL_UNCONFIRMED', confirm)).toBe(false);
  });
});

describe('failure texts', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the screen's own text unless the server explained the failure", () => {
    expect(failureText(errorFromResponse(500, undefined), 'Failed to load order')).toBe('Failed to load order');
    expect(failureText(errorFromResponse(404, { message: 'Order not found' }), 'Failed to load order')).toBe(
      'Order not found',
    );
    expect(failureText(new TypeError('Failed to fetch'), 'Update failed.')).toBe('Update failed.');
  });

  it('turns a request that got no answer into an unexplained error, never "Failed to fetch"', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    const err = await api('/api/orders/1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 0, explained: false, message: NETWORK_FAILED });
    expect(failureText(err, 'Failed to load users')).toBe('Failed to load users');
  });

  it('leaves an abort by the caller as it is', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(abort));
    await expect(api('/api/products')).rejects.toBe(abort);
  });
});
