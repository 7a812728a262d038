import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useRegisterConfirm, useResendConfirmation } from '../api.ts';
import { FormPage } from '../components/form.tsx';
import { readResendCooldown, startResendCooldown } from '../resend-cooldown.ts';
import { useCountdown } from '#web/lib/use-countdown.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * Post-signup thank-you page with a resend button (captcha; a 40 s cooldown from each e-mail sent, the
 * registration's own included, kept across reloads).
 */
export default function RegisterConfirmPage() {
  useDocumentTitle('Confirm Your Email');
  const { token = '' } = useParams();
  const { data, error, isPending } = useRegisterConfirm(token);
  const resend = useResendConfirmation();
  const captcha = useCaptcha({ missingMessage: null });
  const [waiting, setWaiting] = useState(false);
  const [endsAt, setEndsAt] = useState<number | null>(() => readResendCooldown());
  const [alert, setAlert] = useState<{ variant: 'success' | 'danger' | 'warning'; text: string } | null>(null);
  const left = useCountdown(endsAt);

  const onResend = async () => {
    if (!data) return;
    setWaiting(true);
    const grecaptcha = await captcha.answer();
    setWaiting(false);
    if (!grecaptcha) {
      setAlert({ variant: 'warning', text: 'PLEASE USE ReCAPTCHA!' });
      return;
    }
    resend.mutate(
      { email: data.message, grecaptcha },
      {
        onSuccess: () => {
          setAlert({ variant: 'success', text: 'EMAIL SENT!' });
          setEndsAt(startResendCooldown());
        },
        onError: (err) => setAlert({ variant: 'danger', text: err.message }),
        onSettled: captcha.renew,
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
            <Captcha {...captcha.props} />
          </div>
          <button
            type="button"
            className="btn btn-outline-primary w-100 mb-3"
            onClick={() => void onResend()}
            disabled={left > 0 || waiting || resend.isPending}
          >
            {left > 0 ? `Resend in ${left}s` : waiting || resend.isPending ? 'Sending…' : 'Resend Email'}
          </button>
        </>
      )}
      <Link to={paths.login()} className="btn btn-primary w-100">
        Go to Login
      </Link>
    </FormPage>
  );
}
