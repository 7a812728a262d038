import type { AdminUser, User } from '@store/shared';
import type { UserRow } from './users.repository.ts';

/** The user fields every user answer carries (never the password hash or token version). */
export function toUser(u: UserRow): User {
  return {
    _id: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email ?? '',
    isAdmin: u.isAdmin,
    isActive: u.isActive,
    isGuest: u.isGuest,
    profileUpdateCount: u.profileUpdateCount,
    shippingAddress: u.shippingAddress ?? null,
    ...(u.pendingEmail ? { pendingEmail: u.pendingEmail } : {}),
  };
}

export function toAdminUser(u: UserRow): AdminUser {
  return { ...toUser(u), createdAt: u.createdAt.toISOString() };
}
