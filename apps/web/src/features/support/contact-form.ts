import { zodResolver } from '@hookform/resolvers/zod';
import { CONTACT_MESSAGES, contactSchema } from '@store/shared';
import type { FieldErrors } from 'react-hook-form';
import type { UserInfo } from '#web/lib/auth.ts';

/** The contact form's fields and their labels. */
export const CONTACT_LABELS = { name: 'Name', email: 'Email', subject: 'Subject', message: 'Message' } as const;
export type ContactField = keyof typeof CONTACT_LABELS;

/** What an empty field says under itself, e.g. 'Name is required'. */
export const requiredMessage = (field: ContactField) => `${CONTACT_LABELS[field]} is required`;

const serverRules = zodResolver(contactSchema);

/**
 * The contact form's rules are the server's, but an empty field names itself ('Name is required') where
 * the API answers 'All fields are required' for any of them; the form sums them up with that sentence
 * (see `anyRequired`). The captcha is not among them: it solves itself and a submit waits for it.
 */
export const contactResolver: typeof serverRules = async (values, context, options) => {
  const result = await serverRules(values, context, options);
  for (const field of Object.keys(CONTACT_LABELS) as ContactField[]) {
    const error = result.errors[field];
    if (error?.message === CONTACT_MESSAGES.required)
      result.errors[field] = { ...error, type: 'required', message: requiredMessage(field) };
  }
  return result;
};

/** Whether some field is empty: the form then shows 'All fields are required' above the fields. */
export function anyRequired(errors: FieldErrors): boolean {
  return (Object.keys(CONTACT_LABELS) as ContactField[]).some((field) => errors[field]?.type === 'required');
}

/** A new contact form: a signed-in shopper's name and e-mail are filled in (a guest's or visitor's are not). */
export function contactDefaults(user: UserInfo | null) {
  const known = user && !user.isGuest ? user : null;
  const name = known ? [known.firstName, known.lastName].filter(Boolean).join(' ') || known.username : '';
  return { name, email: known?.email ?? '', subject: '', message: '', grecaptcha: '' };
}
