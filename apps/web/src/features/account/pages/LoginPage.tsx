import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_VALIDATION_DELAY_MS, LOGIN_DEBOUNCE_MS, loginSchema } from '@store/shared';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { hasErrorCode } from '#web/lib/api.ts';
import { useLogin } from '../api.ts';
import { FormPage, safeRedirect } from '../components/form.tsx';
import { Field } from '#web/components/Field.tsx';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';

export const WAIT_MESSAGE = 'Please wait a moment before retrying.';

export default function LoginPage() {
  useDocumentTitle('Sign In');
  const [search] = useSearchParams();
  const rawRedirect = search.get('redirect');
  const redirect = safeRedirect(rawRedirect);
  const user = useAuth((s) => s.userInfo);
  const login = useLogin();
  const [notice, setNotice] = useState<string | null>(null);
  const lastSubmit = useRef(0);

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    // the captcha solves itself: the button waits for the fields only, a submit waits for the captcha's answer
    resolver: zodResolver(loginSchema),
    mode: 'onChange',
    defaultValues: { email: '', password: '', grecaptcha: '' },
  });
  const captcha = useCaptcha({ onAnswer: (p) => setValue('grecaptcha', p) });

  const emailError = useDebounced(errors.email?.message, EMAIL_VALIDATION_DELAY_MS);
  const password = watch('password') ?? '';
  const spaced = password.length > 0 && password !== password.trim();

  if (user && !user.isGuest && user.token) return <Navigate to={redirect} replace />;

  const onSubmit = handleSubmit(async (values) => {
    const now = Date.now();
    if (now - lastSubmit.current < LOGIN_DEBOUNCE_MS) {
      setNotice(WAIT_MESSAGE);
      return;
    }
    lastSubmit.current = now;
    setNotice(null);
    const grecaptcha = await captcha.answer();
    if (!grecaptcha) {
      // nothing was sent: the next try need not wait
      lastSubmit.current = 0;
      return;
    }
    login.mutate({ email: values.email, password: values.password, grecaptcha }, { onError: captcha.renew });
  });

  const onward = rawRedirect ? redirect : undefined;
  const unconfirmed = hasErrorCode(login.error, 'EMAIL_UNCONFIRMED', (message) =>
    message.includes('confirm your email'),
  );

  return (
    <FormPage title="Sign In">
      {notice && <Message variant="warning">{notice}</Message>}
      {login.error && (
        <Message variant="danger">
          {login.error.message}
          {unconfirmed && (
            <>
              {' '}
              <Link to={paths.resendConfirmation} className="alert-link">
                Resend the confirmation email
              </Link>
            </>
          )}
        </Message>
      )}
      <form onSubmit={onSubmit} noValidate aria-label="Sign in">
        <Field
          id="login-email"
          label="Email Address"
          type="email"
          autoComplete="email"
          placeholder="Enter email"
          registration={register('email')}
          error={emailError}
        />
        <Field
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          placeholder="Enter password"
          registration={register('password')}
          error={errors.password?.message}
          hint={
            spaced ? (
              <span className="text-warning-emphasis">
                Your password starts or ends with a space. Spaces are kept as typed.
              </span>
            ) : undefined
          }
        />
        <input type="hidden" {...register('grecaptcha')} />
        <div className="mb-3">
          <Captcha {...captcha.props} />
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={!isValid || isSubmitting || login.isPending}>
          {isSubmitting || login.isPending ? 'Signing In…' : 'Sign In'}
        </button>
      </form>
      <div className="d-flex flex-column flex-sm-row justify-content-between gap-2 mt-4">
        <span>
          New customer? <Link to={paths.register(onward)}>Register</Link>
        </span>
        <Link to={paths.forgotPassword(onward)}>Forgot password?</Link>
      </div>
    </FormPage>
  );
}
