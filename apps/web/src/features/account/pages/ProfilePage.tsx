import { zodResolver } from '@hookform/resolvers/zod';
import {
  PROFILE_CAPTCHA_FROM_COUNT,
  PROFILE_COOLDOWN_S,
  TOAST_MS,
  changePasswordFormSchema,
  profileSchema,
} from '@store/shared';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Field } from '#web/components/Field.tsx';
import { Message } from '#web/components/Message.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { useAuth, type UserInfo } from '#web/lib/auth.ts';
import { useCountdown } from '#web/lib/use-countdown.ts';
import { useChangePassword, useUpdateProfile } from '../api.ts';
import { failureText } from '#web/lib/api.ts';

const PASSWORD_FOR_EMAIL = 'Enter your current password to change your e-mail address';

/**
 * A new e-mail address needs the current password (checked by the server too). The captcha, when asked
 * for, solves itself: Update waits for the fields only, a submit waits for the captcha's answer.
 */
function profileResolver(user: UserInfo) {
  const passwordFor = (v: { email: string; currentPassword?: string }, ctx: z.RefinementCtx) => {
    if (changesEmail(user, v.email) && !v.currentPassword)
      ctx.addIssue({ code: 'custom', message: PASSWORD_FOR_EMAIL, path: ['currentPassword'] });
  };
  return zodResolver(profileSchema.superRefine(passwordFor));
}

const changesEmail = (user: UserInfo, email: string | undefined) =>
  Boolean(email) && email?.trim().toLowerCase() !== user.email && email?.trim().toLowerCase() !== user.pendingEmail;
const PROFILE_ERROR_TOAST_MS = 6000;

/** A result of the profile or password form, shown as a toast for `delay` ms. */
type ToastState = ToastContent & { delay: number };

/**
 * The profile form beside two tabs: the user's orders (`ordersPanel`, which the app passes in: the orders
 * feature owns it) and the password change.
 */
export default function ProfilePage({ ordersPanel }: { ordersPanel: ReactNode }) {
  useDocumentTitle('Profile');
  const user = useAuth((s) => s.userInfo);
  const [tab, setTab] = useState<'orders' | 'password'>('orders');
  const [toast, setToast] = useState<ToastState | null>(null);
  if (!user) return null;

  return (
    <>
      <div className="row g-4">
        <div className="col-lg-4">
          <h1 className="h3 mb-3">User Profile</h1>
          <ProfileForm user={user} onToast={setToast} />
        </div>
        <div className="col-lg-8">
          <div className="btn-group mb-3" role="group" aria-label="Show">
            <button
              type="button"
              className={`btn ${tab === 'orders' ? 'btn-primary' : 'btn-outline-primary'}`}
              aria-pressed={tab === 'orders'}
              onClick={() => setTab('orders')}
            >
              My Orders
            </button>
            <button
              type="button"
              className={`btn ${tab === 'password' ? 'btn-primary' : 'btn-outline-primary'}`}
              aria-pressed={tab === 'password'}
              onClick={() => setTab('password')}
            >
              Change Password
            </button>
          </div>
          {tab === 'orders' ? ordersPanel : <ChangePassword isGuest={user.isGuest} onToast={setToast} />}
        </div>
      </div>
      <TimedToast toast={toast} delay={toast?.delay ?? TOAST_MS.profile} onClose={() => setToast(null)} />
    </>
  );
}

function ProfileForm({ user, onToast }: { user: UserInfo; onToast: (t: ToastState) => void }) {
  const update = useUpdateProfile();
  const needsCaptcha = user.profileUpdateCount >= PROFILE_CAPTCHA_FROM_COUNT;
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const left = useCountdown(endsAt);

  const {
    register,
    handleSubmit,
    setValue,
    reset,
    watch,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    resolver: profileResolver(user),
    mode: 'onChange',
    values: {
      firstName: user.firstName,
      lastName: user.lastName,
      email: user.pendingEmail ?? user.email,
      currentPassword: '',
      grecaptcha: '',
    },
    resetOptions: { keepDirtyValues: true },
  });
  const captcha = useCaptcha({ onAnswer: (p) => setValue('grecaptcha', p) });
  const askPassword = changesEmail(user, watch('email'));

  const onSubmit = handleSubmit(async (v) => {
    const grecaptcha = needsCaptcha ? await captcha.answer() : undefined;
    if (needsCaptcha && !grecaptcha) return;
    update.mutate(
      {
        firstName: v.firstName,
        lastName: v.lastName,
        email: v.email,
        ...(changesEmail(user, v.email) ? { currentPassword: v.currentPassword } : {}),
        ...(grecaptcha ? { grecaptcha } : {}),
      },
      {
        onSuccess: (res) => {
          onToast({
            variant: 'success',
            title: 'Profile',
            body: res.message ?? 'Profile updated',
            delay: TOAST_MS.profile,
          });
          setEndsAt(Date.now() + PROFILE_COOLDOWN_S * 1000);
          reset({
            firstName: res.firstName,
            lastName: res.lastName,
            email: res.pendingEmail ?? res.email,
            currentPassword: '',
            grecaptcha: '',
          });
        },
        onError: (err) =>
          onToast({
            variant: 'danger',
            title: 'Profile Error',
            body: failureText(err, 'Failed to update profile'),
            delay: PROFILE_ERROR_TOAST_MS,
          }),
        onSettled: () => {
          if (needsCaptcha) captcha.renew();
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Profile">
      <Field
        id="profile-first"
        label="First Name"
        autoComplete="given-name"
        registration={register('firstName')}
        error={errors.firstName?.message}
      />
      <Field
        id="profile-last"
        label="Last Name"
        autoComplete="family-name"
        registration={register('lastName')}
        error={errors.lastName?.message}
      />
      <Field
        id="profile-email"
        label="Email Address"
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
        hint={
          user.pendingEmail ? (
            <span data-testid="pending-email">
              Waiting for confirmation: open the link we sent to <strong>{user.pendingEmail}</strong>. Until then you
              sign in with <strong>{user.email}</strong>. To cancel, save your current address again.
            </span>
          ) : (
            'A new address takes effect when you open the link we send to it.'
          )
        }
      />
      {askPassword && (
        <Field
          id="profile-current-password"
          label="Current Password"
          type="password"
          autoComplete="current-password"
          registration={register('currentPassword')}
          error={errors.currentPassword?.message}
          hint="Needed to change your e-mail address."
        />
      )}
      <div className="mb-3">
        <label htmlFor="profile-username" className="form-label">
          Username
        </label>
        <input id="profile-username" className="form-control" value={user.username} readOnly />
      </div>
      {needsCaptcha && (
        <div className="mb-3">
          <input type="hidden" {...register('grecaptcha')} />
          <Captcha {...captcha.props} />
        </div>
      )}
      <button
        type="submit"
        className="btn btn-primary w-100"
        disabled={!isValid || isSubmitting || update.isPending || left > 0}
      >
        {left > 0 ? `Wait ${left}s` : isSubmitting || update.isPending ? 'Updating…' : 'Update'}
      </button>
    </form>
  );
}

function ChangePassword({ isGuest, onToast }: { isGuest: boolean; onToast: (t: ToastState) => void }) {
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    mode: 'onChange',
    defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });

  if (isGuest) return <Message variant="info">Guest accounts cannot change password.</Message>;

  const onSubmit = handleSubmit((v) =>
    change.mutate(
      { currentPassword: v.currentPassword, password: v.password },
      {
        onSuccess: (res) => {
          reset();
          onToast({
            variant: 'success',
            title: 'Password',
            body: res.message ?? 'Password updated successfully',
            delay: TOAST_MS.profile,
          });
        },
        onError: (err) => onToast({ variant: 'danger', title: 'Password', body: err.message, delay: TOAST_MS.profile }),
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change password" className="col-md-8 col-xl-6">
      <h2 className="h4 mb-3">Change Password</h2>
      <Field
        id="pw-current"
        label="Current Password"
        type="password"
        autoComplete="current-password"
        registration={register('currentPassword')}
        error={errors.currentPassword?.message}
      />
      <Field
        id="pw-new"
        label="New Password"
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <Field
        id="pw-confirm"
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        registration={register('confirmPassword', { deps: ['password'] })}
        error={errors.confirmPassword?.message}
      />
      <button type="submit" className="btn btn-primary" disabled={!isValid || change.isPending}>
        {change.isPending ? 'Saving…' : 'Change Password'}
      </button>
    </form>
  );
}
