import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_VALIDATION_DELAY_MS, PASSWORD_HINT_DELAY_MS, captchaAnswer, registerFormSchema } from '@store/shared';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useRegister } from '../api.ts';
import { FormPage, safeRedirect } from '../components/form.tsx';
import { startResendCooldown } from '../resend-cooldown.ts';
import { Field } from '#web/components/Field.tsx';
import { useDebounced } from '#web/lib/use-debounced.ts';
import { paths } from '#web/lib/paths.ts';

const FIELDS = ['firstName', 'lastName', 'username', 'email', 'password', 'confirmPassword'] as const;
// the answer may still be empty here: the captcha solves itself, Register waits for the fields only and a submit for the answer
const formSchema = registerFormSchema.safeExtend({ grecaptcha: captchaAnswer.unwrap() });

export default function RegisterPage() {
  useDocumentTitle('Register');
  const [search] = useSearchParams();
  const rawRedirect = search.get('redirect');
  const redirect = safeRedirect(rawRedirect);
  const navigate = useNavigate();
  const user = useAuth((s) => s.userInfo);
  const signUp = useRegister();

  const {
    register,
    handleSubmit,
    setValue,
    watch,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    resolver: zodResolver(formSchema),
    mode: 'onChange',
    defaultValues: {
      firstName: '',
      lastName: '',
      username: '',
      email: '',
      password: '',
      confirmPassword: '',
      grecaptcha: '',
    },
  });
  const captcha = useCaptcha({ onAnswer: (p) => setValue('grecaptcha', p) });

  const values = watch();
  const allFilled = FIELDS.every((f) => String(values[f] ?? '').length > 0);
  const emailError = useDebounced(errors.email?.message, EMAIL_VALIDATION_DELAY_MS);
  const passwordError = useDebounced(errors.password?.message, PASSWORD_HINT_DELAY_MS);

  if (user && !user.isGuest && user.token) return <Navigate to={redirect} replace />;

  const onSubmit = handleSubmit(async (v) => {
    const grecaptcha = await captcha.answer();
    if (!grecaptcha) return;
    signUp.mutate(
      {
        firstName: v.firstName,
        lastName: v.lastName,
        username: v.username,
        email: v.email,
        password: v.password,
        grecaptcha,
      },
      {
        onSuccess: (res) => {
          // the confirmation e-mail is on its way: the thank-you page's resend waits its cooldown
          startResendCooldown();
          navigate(paths.registerConfirm(res.registerToken));
        },
        onError: captcha.renew,
      },
    );
  });

  const onward = rawRedirect ? redirect : undefined;

  return (
    <FormPage title="Register">
      {signUp.error && <Message variant="danger">{signUp.error.message}</Message>}
      <form onSubmit={onSubmit} noValidate aria-label="Register">
        <div className="row g-0 gx-sm-3">
          <Field
            className="col-sm-6 mb-3"
            id="reg-first"
            label="First Name"
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName?.message}
          />
          <Field
            className="col-sm-6 mb-3"
            id="reg-last"
            label="Last Name"
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName?.message}
          />
        </div>
        <Field
          id="reg-username"
          label="Username"
          autoComplete="username"
          registration={register('username')}
          error={errors.username?.message}
          hint="Letters, digits, underscore, dot and hyphen; up to 30 characters."
        />
        <Field
          id="reg-email"
          label="Email Address"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={emailError}
        />
        <Field
          id="reg-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          registration={register('password')}
          error={passwordError}
          hint="At least 8 characters with upper and lower case letters, a digit and a special character."
        />
        <Field
          id="reg-confirm"
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          registration={register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
        <input type="hidden" {...register('grecaptcha')} />
        <div className="mb-3">
          <Captcha {...captcha.props} />
        </div>
        <button
          type="submit"
          className="btn btn-primary w-100"
          disabled={!isValid || !allFilled || isSubmitting || signUp.isPending}
        >
          {isSubmitting || signUp.isPending ? 'Registering…' : 'Register'}
        </button>
      </form>
      <p className="mt-4">
        Have an account? <Link to={paths.login(onward)}>Sign In</Link>
      </p>
    </FormPage>
  );
}
