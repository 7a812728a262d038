import { useEffect, useState, type ReactNode } from 'react';
import { Loader } from '#web/components/Loader.tsx';
import { preferredTheme } from '#web/lib/theme-preference.ts';

/**
 * The standalone page an e-mail link opens: no header, footer, links or buttons, and always the light
 * theme (the saved choice comes back when the visitor leaves). It uses the link once and shows the
 * outcome: `success` when it worked, the server's message when it did not.
 */
export function LinkResultPage({
  use,
  busyLabel,
  failedTitle,
  success,
}: {
  use: () => Promise<{ message: string }>;
  busyLabel: string;
  failedTitle: string;
  success: (message: string) => ReactNode;
}) {
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(null);

  // index.html applied light before first paint on these pages; leaving, the shopper's theme comes back
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.bsTheme = 'light';
    return () => {
      root.dataset.bsTheme = preferredTheme();
    };
  }, []);

  useEffect(() => {
    let alive = true;
    use().then(
      (res) => alive && setState({ ok: true, message: res.message }),
      (err: Error) => alive && setState({ ok: false, message: err.message }),
    );
    return () => {
      alive = false;
    };
  }, [use]);

  return (
    <main id="main" className="confirm-page container py-5">
      <div className="row justify-content-center">
        <div className="col-12 col-md-8 col-lg-6 text-center">
          {!state ? (
            <Loader label={busyLabel} />
          ) : state.ok ? (
            <div className="card shadow-sm p-4">{success(state.message)}</div>
          ) : (
            <div className="card shadow-sm p-4">
              <h1 className="h3 mb-3">{failedTitle}</h1>
              <div className="alert alert-danger mb-0" role="alert">
                {state.message}
              </div>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
