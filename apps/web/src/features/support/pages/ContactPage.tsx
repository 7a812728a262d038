import { zodResolver } from '@hookform/resolvers/zod';
import { CONTACT_MESSAGES, LIMITS, contactFormSchema } from '@store/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Captcha } from '#web/components/Captcha.tsx';
import { Message } from '#web/components/Message.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { ApiError } from '#web/lib/api.ts';
import { useSendContact } from '../api.ts';

const empty = { name: '', email: '', subject: '', message: '', grecaptcha: '' };

/** Contact Us: name, e-mail, subject, message and the captcha. */
export default function ContactPage() {
  useDocumentTitle('Contact Us');
  const send = useSendContact();
  const [captchaKey, setCaptchaKey] = useState(0);
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    reset,
    formState: { errors },
  } = useForm({ resolver: zodResolver(contactFormSchema), defaultValues: empty });

  const onSubmit = handleSubmit((v) => {
    setSent(false);
    send.mutate(v, {
      onSuccess: () => {
        setSent(true);
        reset(empty);
      },
      onSettled: () => {
        setValue('grecaptcha', '');
        setCaptchaKey((k) => k + 1);
      },
    });
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
              aria-describedby={errors.message ? 'contact-message-error' : undefined}
              {...register('message')}
            />
            {errors.message && (
              <div id="contact-message-error" className="invalid-feedback d-block">
                {errors.message.message}
              </div>
            )}
          </div>
          <input type="hidden" {...register('grecaptcha')} />
          <div className="mb-3">
            <Captcha
              resetKey={captchaKey}
              onChange={(p) => setValue('grecaptcha', p ?? '', { shouldValidate: true })}
            />
            {errors.grecaptcha && <div className="invalid-feedback d-block">{errors.grecaptcha.message}</div>}
          </div>
          <button type="submit" className="btn btn-primary" disabled={send.isPending}>
            {send.isPending ? 'Sending…' : 'Send Message'}
          </button>
        </form>
      </div>
    </div>
  );
}
