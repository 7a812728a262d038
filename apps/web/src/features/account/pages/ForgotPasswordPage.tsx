import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_VALIDATION_DELAY_MS, forgotPasswordSchema } from '@store/shared';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useForgotPassword } from '../api.ts';
import { FormPage, safeRedirect } from '../components/form.tsx';
import { Field } from '#web/components/Field.tsx';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';

export default function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  const [search] = useSearchParams();
  const rawRedirect = search.get('redirect');
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), mode: 'onChange', defaultValues: { email: '' } });
  const emailError = useDebounced(errors.email?.message, EMAIL_VALIDATION_DELAY_MS);
  const onSubmit = handleSubmit((v) => forgot.mutate({ email: v.email }));
  const onward = rawRedirect ? safeRedirect(rawRedirect) : undefined;

  return (
    <FormPage title="Forgot Password">
      {forgot.isSuccess && (
        <Message variant="success">
          <strong>Email sent</strong>. {forgot.data.message}
        </Message>
      )}
      {forgot.error && <Message variant="danger">{forgot.error.message}</Message>}
      <p>Enter the email address of your account and we will send you a link to choose a new password.</p>
      <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
        <Field
          id="fpw-email"
          label="Email Address"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={emailError}
        />
        <button type="submit" className="btn btn-primary w-100" disabled={!isValid || forgot.isPending}>
          {forgot.isPending ? 'Sending…' : 'Send Reset Link'}
        </button>
      </form>
      <p className="mt-4">
        <Link to={paths.login(onward)}>Back to Sign In</Link>
      </p>
    </FormPage>
  );
}
