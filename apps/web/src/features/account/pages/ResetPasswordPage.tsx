import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema } from '@store/shared';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useResetPassword } from '../api.ts';
import { FormPage } from '../components/form.tsx';
import { Field } from '#web/components/Field.tsx';
import { paths } from '#web/lib/paths.ts';

export default function ResetPasswordPage() {
  useDocumentTitle('Reset Password');
  const { token = '' } = useParams();
  const reset = useResetPassword(token);
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(resetPasswordFormSchema),
    mode: 'onChange',
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const onSubmit = handleSubmit((v) => reset.mutate({ newPassword: v.newPassword }));

  return (
    <FormPage title="Reset Password">
      {reset.error && <Message variant="danger">{reset.error.message}</Message>}
      {reset.isSuccess ? (
        <>
          <Message variant="success">{reset.data.message}</Message>
          <Link to={paths.login()} className="btn btn-primary w-100">
            Sign In
          </Link>
        </>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="Reset password">
          <Field
            id="reset-password"
            label="New Password"
            type="password"
            autoComplete="new-password"
            registration={register('newPassword')}
            error={errors.newPassword?.message}
          />
          <Field
            id="reset-confirm"
            label="Verify Password"
            type="password"
            autoComplete="new-password"
            registration={register('confirmPassword', { deps: ['newPassword'] })}
            error={errors.confirmPassword?.message}
          />
          <button type="submit" className="btn btn-primary w-100" disabled={!isValid || reset.isPending}>
            {reset.isPending ? 'Saving…' : 'Reset Password'}
          </button>
        </form>
      )}
    </FormPage>
  );
}
