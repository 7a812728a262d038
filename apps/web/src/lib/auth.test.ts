import { beforeEach, describe, expect, it } from 'vitest';
import { currentToken, displayName, useAuth } from './auth.ts';

const user = {
  _id: 'u1',
  username: 'jane',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  isAdmin: false,
  isGuest: false,
  isActive: true,
  profileUpdateCount: 1,
};

describe('the stored user', () => {
  beforeEach(() => useAuth.getState().clear());

  it('keeps the fields of the shared User and the token, dropping the rest', () => {
    useAuth
      .getState()
      .setUserInfo({ ...user, token: 't', extra: 'x', shippingAddress: null } as typeof user & { token: string });
    expect(useAuth.getState().userInfo).toEqual({ ...user, token: 't' });
    expect(currentToken()).toBe('t');
  });

  it('fills in what a partial user lacks (older stored data, a guest made from an order)', () => {
    useAuth.getState().setUserInfo({ _id: 'g1', username: undefined, isGuest: true });
    expect(useAuth.getState().userInfo).toEqual({
      _id: 'g1',
      username: '',
      firstName: '',
      lastName: '',
      email: '',
      isAdmin: false,
      isGuest: true,
      isActive: true,
      profileUpdateCount: 0,
    });
  });

  it('gives a guest no token, and treats empty values as none', () => {
    useAuth.getState().setUserInfo({ ...user, isGuest: true, token: 't' });
    expect(useAuth.getState().userInfo?.token).toBeUndefined();
    expect(currentToken()).toBeUndefined();
    useAuth.getState().setUserInfo({ ...user, token: '', pendingEmail: '' });
    expect(useAuth.getState().userInfo).toEqual(user);
  });

  it('refuses a user without an id, and gives a field of the wrong type its default', () => {
    useAuth.getState().setUserInfo({ _id: 1 } as unknown as typeof user);
    expect(useAuth.getState().userInfo).toBeNull();
    useAuth.getState().setUserInfo({ ...user, isAdmin: 'yes', isActive: 0 } as unknown as typeof user);
    expect(useAuth.getState().userInfo).toEqual({ ...user, isAdmin: false, isActive: true });
  });

  it('names a guest GUEST in the header', () => {
    expect(displayName({ ...user, isGuest: true })).toBe('GUEST');
    expect(displayName({ ...user, firstName: '' })).toBe('jane');
  });
});
