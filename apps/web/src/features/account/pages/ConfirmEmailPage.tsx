import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { Loader } from '../../../components/Loader.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { confirmEmail } from '../api.ts';

/**
 * Standalone page the e-mail link opens (spec §2): no header, footer, links or buttons, and always
 * the light theme (the saved choice comes back when the visitor leaves).
 */
export default function ConfirmEmailPage() {
  useDocumentTitle('Email Confirmation');
  const { token = '' } = useParams();
  const [state, setState] = useState<{ ok: boolean; message: string } | null>(null);

  useEffect(() => {
    const root = document.documentElement;
    const saved = root.dataset.bsTheme;
    root.dataset.bsTheme = 'light';
    return () => {
      if (saved) root.dataset.bsTheme = saved;
    };
  }, []);

  useEffect(() => {
    let alive = true;
    confirmEmail(token).then(
      (res) => alive && setState({ ok: true, message: res.message }),
      (err: Error) => alive && setState({ ok: false, message: err.message }),
    );
    return () => {
      alive = false;
    };
  }, [token]);

  return (
    <main id="main" className="confirm-page container py-5">
      <div className="row justify-content-center">
        <div className="col-12 col-md-8 col-lg-6 text-center">
          {!state ? (
            <Loader label="Confirming your email…" />
          ) : state.ok ? (
            <div className="card shadow-sm p-4">
              <h1 className="h3 text-success mb-3">Email Confirmed</h1>
              <p className="fs-5 mb-2">Thank you for confirming your email!</p>
              <p className="mb-0">Your account is now active.</p>
            </div>
          ) : (
            <div className="card shadow-sm p-4">
              <h1 className="h3 mb-3">Email Confirmation</h1>
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
