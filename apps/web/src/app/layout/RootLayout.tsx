import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { OfflineNotice } from '#web/components/OfflineNotice.tsx';
import { ErrorBoundary } from '../ErrorBoundary.tsx';
import { SessionGuard } from '../guards.tsx';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';

/** A new page starts at the top; back and forward keep the browser's own scroll restoration. */
function useScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, type]);
}

export function RootLayout() {
  const { pathname } = useLocation();
  useScrollToTop();
  return (
    <div className="d-flex flex-column min-vh-100">
      <a href="#main" className="visually-hidden-focusable skip-link">
        Skip to content
      </a>
      <SessionGuard />
      <Header />
      <OfflineNotice />
      <main id="main" className="container py-4 flex-grow-1" tabIndex={-1}>
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<Loader />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
