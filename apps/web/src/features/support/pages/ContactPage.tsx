import { CONTACT_MESSAGES, LIMITS } from '@store/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Captcha, useCaptcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { ApiError } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useSendContact } from '../api.ts';
import { anyRequired, contactDefaults, contactResolver } from '../contact-form.ts';

/**
 * Contact Us: name, e-mail (a signed-in shopper's filled in), subject, message and the captcha, which
 * solves itself. Each empty field is marked under itself; 'All fields are required' sums them up.
 */
export default function ContactPage() {
  useDocumentTitle('Contact Us');
  const user = useAuth((s) => s.userInfo);
  const send = useSendContact();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: contactResolver, defaultValues: contactDefaults(user) });
  const captcha = useCaptcha({ onAnswer: (p) => setValue('grecaptcha', p) });

  // the form takes no more than the server does: the shopper sees how much is left as they type
  const messageLeft = LIMITS.contactMessage - (watch('message')?.length ?? 0);

  const onSubmit = handleSubmit(async (v) => {
    setSent(false);
    const grecaptcha = await captcha.answer();
    if (!grecaptcha) return;
    send.mutate(
      { ...v, grecaptcha },
      {
        onSuccess: () => {
          setSent(true);
          reset(contactDefaults(useAuth.getState().userInfo));
        },
        // the answer is used: a fresh one is solved quietly, with no message
        onSettled: captcha.renew,
      },
    );
  });

  const field = (name: 'name' | 'email' | 'subject', label: string, max: number, type = 'text', auto?: string) => (
    <div className="mb-3">
      <label htmlFor={`contact-${name}`} className="form-label">
        {label}
      </label>
      <input
        id={`contact-${name}`}
        type={type}
        autoComplete={auto}
        maxLength={max}
        className={`form-control${errors[name] ? ' is-invalid' : ''}`}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `contact-${name}-error` : undefined}
        {...register(name)}
      />
      {errors[name] && (
        <div id={`contact-${name}-error`} className="invalid-feedback d-block">
          {errors[name].message}
        </div>
      )}
    </div>
  );

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-md-10 col-lg-7">
        <h1 className="h3 mb-4">Contact Us</h1>
        {sent && <Message variant="success">{CONTACT_MESSAGES.success}</Message>}
        {send.error && (
          <Message variant="danger">
            {CONTACT_MESSAGES.failed}
            {send.error.message && !(send.error instanceof ApiError && !send.error.explained)
              ? `: ${send.error.message}`
              : ''}
          </Message>
        )}
        {anyRequired(errors) && <Message variant="danger">{CONTACT_MESSAGES.required}</Message>}
        <form onSubmit={onSubmit} noValidate aria-label="Contact us">
          {field('name', 'Name', LIMITS.contactName, 'text', 'name')}
          {field('email', 'Email', LIMITS.email, 'email', 'email')}
          {field('subject', 'Subject', LIMITS.contactSubject)}
          <div className="mb-3">
            <label htmlFor="contact-message" className="form-label">
              Message
            </label>
            <textarea
              id="contact-message"
              rows={6}
              maxLength={LIMITS.contactMessage}
              className={`form-control${errors.message ? ' is-invalid' : ''}`}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={`contact-message-left${errors.message ? ' contact-message-error' : ''}`}
              {...register('message')}
            />
            <div id="contact-message-left" className="form-text">
              {messageLeft.toLocaleString('en-US')} of {LIMITS.contactMessage.toLocaleString('en-US')} characters left
            </div>
            {errors.message && (
              <div id="contact-message-error" className="invalid-feedback d-block">
                {errors.message.message}
              </div>
            )}
          </div>
          <input type="hidden" {...register('grecaptcha')} />
          <div className="mb-3">
            <Captcha {...captcha.props} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting || send.isPending}>
            {isSubmitting || send.isPending ? 'Sending…' : 'Send Message'}
          </button>
        </form>
      </div>
    </div>
  );
}
