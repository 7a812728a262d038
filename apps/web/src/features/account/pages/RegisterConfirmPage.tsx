import { RESEND_COOLDOWN_KEY, RESEND_COOLDOWN_S } from '@store/shared';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Captcha } from '#web/components/Captcha.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useRegisterConfirm, useResendConfirmation } from '../api.ts';
import { FormPage } from '../components/form.tsx';
import { useCountdown } from '#web/lib/use-countdown.ts';
import { paths } from '#web/lib/paths.ts';

function readCooldown(): number | null {
  try {
    const n = Number(localStorage.getItem(RESEND_COOLDOWN_KEY));
    return Number.isFinite(n) && n > Date.now() ? n : null;
  } catch {
    return null;
  }
}

function writeCooldown(endsAt: number) {
  try {
    localStorage.setItem(RESEND_COOLDOWN_KEY, String(endsAt));
  } catch {
    /* blocked storage: the countdown still runs for this visit */
  }
}

/** Post-signup thank-you page with a resend button (captcha, 40 s cooldown kept across reloads). */
export default function RegisterConfirmPage() {
  useDocumentTitle('Confirm Your Email');
  const { token = '' } = useParams();
  const { data, error, isPending } = useRegisterConfirm(token);
  const resend = useResendConfirmation();
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [endsAt, setEndsAt] = useState<number | null>(readCooldown);
  const [alert, setAlert] = useState<{ variant: 'success' | 'danger' | 'warning'; text: string } | null>(null);
  const left = useCountdown(endsAt);

  const onResend = () => {
    if (!data) return;
    if (!captcha) {
      setAlert({ variant: 'warning', text: 'PLEASE USE ReCAPTCHA!' });
      return;
    }
    resend.mutate(
      { email: data.message, grecaptcha: captcha },
      {
        onSuccess: () => {
          setAlert({ variant: 'success', text: 'EMAIL SENT!' });
          const until = Date.now() + RESEND_COOLDOWN_S * 1000;
          writeCooldown(until);
          setEndsAt(until);
        },
        onError: (err) => setAlert({ variant: 'danger', text: err.message }),
        onSettled: () => {
          setCaptcha(null);
          setCaptchaKey((k) => k + 1);
        },
      },
    );
  };

  return (
    <FormPage title="Thank you for registering!">
      {isPending ? (
        <Loader />
      ) : error ? (
        <Message variant="danger">{error.message}</Message>
      ) : (
        <>
          <p>
            A confirmation email was sent to <strong>{data.message}</strong>. Please follow the link in it to activate
            your account.
          </p>
          <p className="text-body-secondary">Did not get it? Check your spam folder, or send it again.</p>
          {alert && <Message variant={alert.variant}>{alert.text}</Message>}
          <div className="mb-3">
            <Captcha resetKey={captchaKey} onChange={setCaptcha} />
          </div>
          <button
            type="button"
            className="btn btn-outline-primary w-100 mb-3"
            onClick={onResend}
            disabled={left > 0 || resend.isPending}
          >
            {left > 0 ? `Resend in ${left}s` : resend.isPending ? 'Sending…' : 'Resend Email'}
          </button>
        </>
      )}
      <Link to={paths.login()} className="btn btn-primary w-100">
        Go to Login
      </Link>
    </FormPage>
  );
}
