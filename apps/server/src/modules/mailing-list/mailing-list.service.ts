import { checkEmail, cleanText } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { mailingListRepository as repo } from './mailing-list.repository.ts';

/** Subscribes an address (the shipping form's 'Send me promotions & deals' opt-in); subscribing twice changes nothing. */
export async function subscribe(db: Db, input: { email?: string; source?: string }): Promise<{ message: string }> {
  const { value: email, error } = checkEmail(input.email ?? '');
  if (error) throw new BadRequestError(error);
  const source = cleanText(input.source ?? '', 64);
  await repo.add(db, email, source);
  return { message: 'Subscribed' };
}
