import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth.ts';
import { setTokenFailedHandler } from '../lib/api.ts';
import { useLogout } from './use-logout.ts';
import { paths } from '../lib/paths.ts';

/** First path segments a guest may visit: browsing, cart, checkout, orders and the account pages; not profile, support or admin. */
const GUEST_ALLOWED = new Set([
  '',
  'page',
  'search',
  'product',
  'cart',
  'shipping',
  'shippingrate',
  'payment',
  'placeorder',
  'order',
  'login',
  'register',
  'forgotpw',
  'registerconfirm',
  'resendconfirmation',
  'user',
  'users',
  'contact',
]);

export function guestMayVisit(pathname: string): boolean {
  return GUEST_ALLOWED.has(pathname.split('/')[1]?.toLowerCase() ?? '');
}

/**
 * A guest outside the allowed pages has its stored info cleared and goes to /login?redirect=…;
 * a request whose bearer token the server refuses (TOKEN_FAILED) logs out.
 */
export function SessionGuard() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const isGuest = useAuth((s) => s.userInfo?.isGuest === true);
  const logout = useLogout();

  useEffect(() => {
    setTokenFailedHandler(logout);
    return () => setTokenFailedHandler(() => undefined);
  }, [logout]);

  useEffect(() => {
    if (!isGuest || guestMayVisit(pathname)) return;
    useAuth.getState().clear();
    navigate(paths.login(pathname + search), { replace: true });
  }, [isGuest, pathname, search, navigate]);
  return null;
}

/** Pages for registered users (a guest or a visitor signs in first). */
export function RequireUser() {
  const { pathname, search } = useLocation();
  const user = useAuth((s) => s.userInfo);
  if (!user || user.isGuest) return <Navigate to={paths.login(pathname + search)} replace />;
  return <Outlet />;
}

/**
 * Admin pages: a signed-out visitor goes to /login?redirect=<the admin page, query included> and comes back
 * after signing in; a signed-in non-admin goes to /login without one (signed in, it would come straight back).
 */
export function RequireAdmin() {
  const { pathname, search } = useLocation();
  const user = useAuth((s) => s.userInfo);
  const signedIn = Boolean(user && !user.isGuest && user.token);
  if (!signedIn) return <Navigate to={paths.login(pathname + search)} replace />;
  if (!user?.isAdmin) return <Navigate to={paths.login()} replace />;
  return <Outlet />;
}
