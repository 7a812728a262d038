import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_VALIDATION_DELAY_MS, resendConfirmationSchema } from '@store/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useResendConfirmation } from '../api.ts';
import { FormPage } from '../components/form.tsx';
import { readResendCooldown, startResendCooldown } from '../resend-cooldown.ts';
import { Field } from '#web/components/Field.tsx';
import { useCountdown } from '#web/lib/use-countdown.ts';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';

export default function ResendConfirmationPage() {
  useDocumentTitle('Resend Confirmation');
  const resend = useResendConfirmation();
  // one e-mail per cooldown (RESEND_COOLDOWN_S from each send, shared with the thank-you page)
  const [endsAt, setEndsAt] = useState<number | null>(() => readResendCooldown());
  const left = useCountdown(endsAt);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    // the captcha solves itself: the button waits for the address only, a submit waits for the captcha's answer
    resolver: zodResolver(resendConfirmationSchema),
    mode: 'onChange',
    defaultValues: { email: '', grecaptcha: '' },
  });
  const captcha = useCaptcha({ onAnswer: (p) => setValue('grecaptcha', p) });
  const emailError = useDebounced(errors.email?.message, EMAIL_VALIDATION_DELAY_MS);

  const onSubmit = handleSubmit(async (v) => {
    const grecaptcha = await captcha.answer();
    if (!grecaptcha) return;
    resend.mutate(
      { email: v.email, grecaptcha },
      { onSuccess: () => setEndsAt(startResendCooldown()), onSettled: captcha.renew },
    );
  });

  return (
    <FormPage title="Resend Confirmation Email">
      {resend.isSuccess && (
        <Message variant="success">
          <strong>Email sent</strong>. {resend.data.message}
        </Message>
      )}
      {resend.error && <Message variant="danger">{resend.error.message}</Message>}
      <form onSubmit={onSubmit} noValidate aria-label="Resend confirmation email">
        <Field
          id="resend-email"
          label="Email Address"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={emailError}
        />
        <input type="hidden" {...register('grecaptcha')} />
        <div className="mb-3">
          <Captcha {...captcha.props} />
        </div>
        <button
          type="submit"
          className="btn btn-primary w-100"
          disabled={!isValid || isSubmitting || resend.isPending || left > 0}
        >
          {left > 0 ? `Resend in ${left}s` : isSubmitting || resend.isPending ? 'Sending…' : 'Resend'}
        </button>
      </form>
      <p className="mt-4">
        <Link to={paths.login()}>Back to Sign In</Link>
      </p>
    </FormPage>
  );
}
