import { TOAST_MS } from '@store/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link, useNavigate } from 'react-router';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useAuth } from '#web/lib/auth.ts';
import { CaptchaNeededError, GUEST_MESSAGES, startGuestCheckout } from '../guest.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * The cart's way into the checkout: registered users go on, signed-out visitors sign in
 * or check out as a guest after the captcha; a stored guest continues as that guest.
 */
export function CheckoutButtons({ disabled }: { disabled: boolean }) {
  const userInfo = useAuth((s) => s.userInfo);
  const navigate = useNavigate();
  // the captcha solves itself; a click while it is still at work waits for its answer
  const captcha = useCaptcha({ missingMessage: null });
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useState<ToastContent | null>(null);

  if (userInfo && !userInfo.isGuest) {
    return (
      <Button className="w-100 mb-2" disabled={disabled} onClick={() => navigate(paths.shipping)}>
        Proceed To Checkout
      </Button>
    );
  }

  const isGuest = Boolean(userInfo?.isGuest);
  const guestCheckout = async () => {
    setBusy(true);
    const answer = await captcha.answer();
    if (!isGuest && !answer) {
      setToast({ title: 'Guest Checkout Error', body: GUEST_MESSAGES.captcha, variant: 'danger' });
      setBusy(false);
      return;
    }
    try {
      await startGuestCheckout(answer);
      navigate(paths.shipping);
    } catch (err) {
      const body = err instanceof CaptchaNeededError ? GUEST_MESSAGES.captcha : (err as Error).message;
      setToast({ title: 'Guest Checkout Error', body: body || GUEST_MESSAGES.failed, variant: 'danger' });
      // a payload is accepted once: a failed try needs a fresh one
      if (answer) captcha.renew();
      setBusy(false);
    }
  };

  return (
    <>
      {!isGuest && (
        <Link to={paths.loginThen(paths.shipping)} className="btn btn-primary w-100 mb-3">
          Sign In
        </Link>
      )}
      <div className="guest-checkout border-top pt-3 mb-2">
        <p className="small text-body-secondary mb-2">
          {isGuest ? 'You are checking out as a guest.' : 'No account? Check out as a guest.'}
        </p>
        <div className="mb-2">
          <Captcha {...captcha.props} />
        </div>
        <Button
          variant={isGuest ? 'primary' : 'outline-primary'}
          className="w-100"
          disabled={disabled || busy}
          onClick={() => void guestCheckout()}
        >
          {busy ? 'Please wait…' : isGuest ? 'Continue As Guest' : 'Checkout As Guest'}
        </Button>
      </div>
      <TimedToast toast={toast} delay={TOAST_MS.guestCheckoutError} onClose={() => setToast(null)} />
    </>
  );
}
