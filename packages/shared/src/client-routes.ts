/**
 * The page addresses of the web app, as its router declares them (apps/web/src/app/router.tsx; a web test
 * keeps the two equal). The server answers these with the app and status 200, any other page address
 * with the app's "not found" page and status 404. `:name` is one path segment, `:name?` an optional one.
 */
export const CLIENT_ROUTES = [
  '/',
  '/user/confirm/:token',
  '/user/confirm-email/:token',
  '/page/:pageNumber',
  '/search/:keyword',
  '/search/:keyword/page/:pageNumber',
  '/category/:slug',
  '/category/:slug/page/:pageNumber',
  '/product/:idOrSlug',
  '/cart/:id?',
  '/login',
  '/register',
  '/registerconfirm/:token',
  '/resendconfirmation',
  '/forgotpw',
  '/users/resetpw/:token',
  '/shipping',
  '/shippingrate',
  '/payment',
  '/placeorder',
  '/order/:id',
  '/contact',
  '/profile',
  '/contactsupport',
  '/admin/dashboard',
  '/admin/userlist',
  '/admin/user/:id/edit',
  '/admin/productlist',
  '/admin/productlist/:pageNumber',
  '/admin/product/:id/edit',
  '/admin/orderlist',
  '/admin/couponlist',
  '/admin/support',
] as const;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route pattern as a regular expression: case-insensitive and with an optional trailing slash, as the router matches. */
export function clientRoutePattern(route: string): RegExp {
  const segments = route.split('/').filter(Boolean);
  const body = segments
    .map((s) => {
      if (s.startsWith(':')) return s.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${escapeRegExp(s)}`;
    })
    .join('');
  return new RegExp(`^${body}/?$`, 'i');
}

const PATTERNS = CLIENT_ROUTES.map(clientRoutePattern);

/** Whether a path (no query) is a page of the web app. */
export function isClientRoute(pathname: string): boolean {
  return PATTERNS.some((p) => p.test(pathname));
}
