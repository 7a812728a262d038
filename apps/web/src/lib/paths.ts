/**
 * Every page address of the web app, in one place: links, redirects and navigations are built
 * here, never written as literal strings. (app/router.tsx declares the matching route patterns.)
 */

/** `path` with `?redirect=<target>`, the target fully encoded (any location, query included). */
const withRedirect = (path: string, redirect?: string) =>
  redirect ? `${path}?redirect=${encodeURIComponent(redirect)}` : path;

const enc = encodeURIComponent;

export const paths = {
  home: '/',
  /** A page of the whole catalogue. */
  catalogPage: (page: number) => `/page/${page}`,
  /** Search results, optionally a later page. */
  search: (keyword: string, page?: number) => `/search/${enc(keyword)}${page === undefined ? '' : `/page/${page}`}`,
  /** A category's page (its products and its children's), optionally a later page. */
  category: (slug: string, page?: number) =>
    `/category/${enc(slug)}${page === undefined || page <= 1 ? '' : `/page/${page}`}`,
  product: (slugOrId: string) => `/product/${slugOrId}`,
  cart: '/cart',

  /** The sign-in page; afterwards it goes to `redirect` (any same-site location, encoded: `%2Fprofile`). */
  login: (redirect?: string) => withRedirect('/login', redirect),
  /**
   * The sign-in page, then back to a fixed page of the app, written readably
   * (`/login?redirect=/shipping`). For a location that may carry a query use `login`.
   */
  loginThen: (path: string) => `/login?redirect=${encodeURI(path)}`,
  register: (redirect?: string) => withRedirect('/register', redirect),
  /** After registering: waits for the e-mail confirmation of this registration. */
  registerConfirm: (registerToken: string) => `/registerconfirm/${enc(registerToken)}`,
  resendConfirmation: '/resendconfirmation',
  forgotPassword: (redirect?: string) => withRedirect('/forgotpw', redirect),
  profile: '/profile',
  contact: '/contact',
  contactSupport: '/contactsupport',

  shipping: '/shipping',
  shippingRate: '/shippingrate',
  payment: '/payment',
  placeOrder: '/placeorder',
  order: (id: string) => `/order/${id}`,

  adminDashboard: '/admin/dashboard',
  adminUsers: '/admin/userlist',
  adminUsersPage: (page: number) => `/admin/userlist?page=${page}`,
  adminUserEdit: (id: string) => `/admin/user/${id}/edit`,
  adminProducts: '/admin/productlist',
  adminProductsPage: (page: number) => `/admin/productlist/${page}`,
  adminProductEdit: (id: string) => `/admin/product/${id}/edit`,
  adminOrders: '/admin/orderlist',
  adminOrdersPage: (page: number) => `/admin/orderlist?page=${page}`,
  adminCoupons: '/admin/couponlist',
  adminSupport: '/admin/support',
} as const;
