import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Loader } from '../components/Loader.tsx';
import { paths } from '../lib/paths.ts';
import { RequireAdmin, RequireUser } from './guards.tsx';
import { RootLayout } from './layout/RootLayout.tsx';

// Every page loads on demand, so the first visit downloads only the storefront and the page it opens.
// (Declarative routes: the data router would add ~17 KB gzipped to every page for features unused here.)
// the home page is a chunk of its own, so a product page (where most shoppers land from a search engine)
// does not load the home grid's code; opened at the home address, it starts loading with the app itself
const loadHomePage = () => import('../features/catalog/pages/HomePage.tsx');
const HomePage = lazy(loadHomePage);
if (typeof window !== 'undefined' && window.location.pathname === '/') void loadHomePage();
const ProductListPage = lazy(() => import('../features/catalog/pages/ProductListPage.tsx'));
const CategoryPage = lazy(() => import('../features/catalog/pages/CategoryPage.tsx'));
const ProductPage = lazy(() => import('../features/product/pages/ProductPage.tsx'));
const CartPage = lazy(() => import('./routes/CartRoute.tsx'));
const NotFoundPage = lazy(() => import('./NotFoundPage.tsx'));
// accounts
const LoginPage = lazy(() => import('../features/account/pages/LoginPage.tsx'));
const RegisterPage = lazy(() => import('../features/account/pages/RegisterPage.tsx'));
const RegisterConfirmPage = lazy(() => import('../features/account/pages/RegisterConfirmPage.tsx'));
const ConfirmEmailPage = lazy(() => import('../features/account/pages/ConfirmEmailPage.tsx'));
const ConfirmEmailChangePage = lazy(() => import('../features/account/pages/ConfirmEmailChangePage.tsx'));
const ResendConfirmationPage = lazy(() => import('../features/account/pages/ResendConfirmationPage.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/account/pages/ForgotPasswordPage.tsx'));
const ResetPasswordPage = lazy(() => import('../features/account/pages/ResetPasswordPage.tsx'));
const ProfilePage = lazy(() => import('./routes/ProfileRoute.tsx'));
const UserListPage = lazy(() => import('../features/admin-users/pages/UserListPage.tsx'));
const UserEditPage = lazy(() => import('../features/admin-users/pages/UserEditPage.tsx'));
// checkout and orders
const ShippingPage = lazy(() => import('../features/checkout/pages/ShippingPage.tsx'));
const PaymentPage = lazy(() => import('../features/checkout/pages/PaymentPage.tsx'));
const ShippingRatePage = lazy(() => import('../features/checkout/pages/ShippingRatePage.tsx'));
const PlaceOrderPage = lazy(() => import('../features/checkout/pages/PlaceOrderPage.tsx'));
const OrderPage = lazy(() => import('../features/orders/pages/OrderPage.tsx'));
// admin catalogue, orders and discount codes: separate chunks, never downloaded by shoppers
const AdminProductListPage = lazy(() => import('../features/admin-products/list/ProductListAdminPage.tsx'));
const ProductEditPage = lazy(() => import('../features/admin-products/edit/ProductEditPage.tsx'));
const OrderListPage = lazy(() => import('../features/admin-orders/OrderListPage.tsx'));
const CouponListPage = lazy(() => import('../features/admin-coupons/CouponListPage.tsx'));
const SupportInboxPage = lazy(() => import('../features/support/pages/SupportInboxPage.tsx'));
const AdminDashboardPage = lazy(() => import('../features/admin-dashboard/AdminDashboardPage.tsx'));
// contact and support
const ContactPage = lazy(() => import('../features/support/pages/ContactPage.tsx'));
const ContactSupportPage = lazy(() => import('../features/support/pages/ContactSupportPage.tsx'));

export function AppRoutes() {
  return (
    <Routes>
      {/* e-mail link landings stand alone: no header or footer */}
      <Route
        path="user/confirm/:token"
        element={
          <Suspense fallback={<Loader />}>
            <ConfirmEmailPage />
          </Suspense>
        }
      />
      <Route
        path="user/confirm-email/:token"
        element={
          <Suspense fallback={<Loader />}>
            <ConfirmEmailChangePage />
          </Suspense>
        }
      />
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="page/:pageNumber" element={<ProductListPage />} />
        <Route path="search/:keyword" element={<ProductListPage />} />
        <Route path="search/:keyword/page/:pageNumber" element={<ProductListPage />} />
        <Route path="category/:slug" element={<CategoryPage />} />
        <Route path="category/:slug/page/:pageNumber" element={<CategoryPage />} />
        <Route path="product/:idOrSlug" element={<ProductPage />} />
        <Route path="cart/:id?" element={<CartPage />} />
        <Route path={paths.login()} element={<LoginPage />} />
        <Route path={paths.register()} element={<RegisterPage />} />
        <Route path="registerconfirm/:token" element={<RegisterConfirmPage />} />
        <Route path={paths.resendConfirmation} element={<ResendConfirmationPage />} />
        <Route path={paths.forgotPassword()} element={<ForgotPasswordPage />} />
        <Route path="users/resetpw/:token" element={<ResetPasswordPage />} />
        <Route path={paths.shipping} element={<ShippingPage />} />
        <Route path={paths.shippingRate} element={<ShippingRatePage />} />
        <Route path={paths.payment} element={<PaymentPage />} />
        <Route path={paths.placeOrder} element={<PlaceOrderPage />} />
        <Route path="order/:id" element={<OrderPage />} />
        <Route path={paths.contact} element={<ContactPage />} />
        <Route element={<RequireUser />}>
          <Route path={paths.profile} element={<ProfilePage />} />
          {/* paths match case-insensitively: /contactSupport too */}
          <Route path={paths.contactSupport} element={<ContactSupportPage />} />
        </Route>
        <Route element={<RequireAdmin />}>
          <Route path={paths.adminDashboard} element={<AdminDashboardPage />} />
          <Route path={paths.adminUsers} element={<UserListPage />} />
          <Route path="admin/user/:id/edit" element={<UserEditPage />} />
          <Route path={paths.adminProducts} element={<AdminProductListPage />} />
          <Route path="admin/productlist/:pageNumber" element={<AdminProductListPage />} />
          <Route path="admin/product/:id/edit" element={<ProductEditPage />} />
          <Route path={paths.adminOrders} element={<OrderListPage />} />
          <Route path={paths.adminCoupons} element={<CouponListPage />} />
          <Route path={paths.adminSupport} element={<SupportInboxPage />} />
        </Route>
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
