/** Who made a change, as an order's history names them. */
export function actorOf(user: { username: string; isAdmin: boolean } | null | undefined, guest = false): string {
  if (!user) return guest ? 'guest' : 'system';
  return user.isAdmin ? `admin ${user.username}` : user.username;
}
