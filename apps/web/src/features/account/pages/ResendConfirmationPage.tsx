import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_VALIDATION_DELAY_MS, captchaRequired, resendConfirmationSchema } from '@store/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Captcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useResendConfirmation } from '../api.ts';
import { FormPage } from '../components/form.tsx';
import { Field } from '#web/components/Field.tsx';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';

const schema = resendConfirmationSchema.extend({ grecaptcha: captchaRequired });

export default function ResendConfirmationPage() {
  useDocumentTitle('Resend Confirmation');
  const resend = useResendConfirmation();
  const [captchaKey, setCaptchaKey] = useState(0);
  const {
    register,
    handleSubmit,
    setValue,
    formState: { errors, isValid },
  } = useForm({ resolver: zodResolver(schema), mode: 'onChange', defaultValues: { email: '', grecaptcha: '' } });
  const emailError = useDebounced(errors.email?.message, EMAIL_VALIDATION_DELAY_MS);

  const onSubmit = handleSubmit((v) =>
    resend.mutate(
      { email: v.email, grecaptcha: v.grecaptcha },
      {
        onSettled: () => {
          setValue('grecaptcha', '', { shouldValidate: true });
          setCaptchaKey((k) => k + 1);
        },
      },
    ),
  );

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
          <Captcha resetKey={captchaKey} onChange={(p) => setValue('grecaptcha', p ?? '', { shouldValidate: true })} />
        </div>
        <button type="submit" className="btn btn-primary w-100" disabled={!isValid || resend.isPending}>
          {resend.isPending ? 'Sending…' : 'Resend'}
        </button>
      </form>
      <p className="mt-4">
        <Link to={paths.login()}>Back to Sign In</Link>
      </p>
    </FormPage>
  );
}
