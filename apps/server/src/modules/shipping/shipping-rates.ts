import { z } from 'zod';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { settings } from '#server/db/schema/index.ts';
import { BadRequestError } from '#server/lib/errors.ts';
import { ORDER_MESSAGES } from '@store/shared';

export interface Rate {
  id: string;
  name: string;
  priceCents: number;
}

export const FREE_SHIPPING: Rate = { id: 'free', name: 'Free Shipping', priceCents: 0 };
export const SHIPPING_RATES_SETTING = 'shippingRates';

const rateSchema = z.object({
  id: z.string().regex(/^[a-z0-9_-]{1,64}$/),
  name: z.string().min(1).max(100),
  priceCents: z.number().int().min(0).max(1_000_000),
});
const ratesSchema = z.array(rateSchema).min(1).max(20);

/**
 * SHIPPING_RATES: comma-separated `id:Name:priceInCents`, the first one being the default, e.g.
 * `standard:Standard:0,express:Express (2 days):1299`. The name may hold colons (the id is before the
 * first one, the price after the last one). Unset: one free rate. A bad value stops start-up.
 */
export function parseShippingRates(spec: string | undefined): Rate[] {
  if (!spec?.trim()) return [FREE_SHIPPING];
  const rates = spec.split(',').map((part) => {
    const first = part.indexOf(':');
    const last = part.lastIndexOf(':');
    const price = part.slice(last + 1).trim();
    if (first < 0 || first === last || !/^\d+$/.test(price))
      throw new Error(`SHIPPING_RATES: "${part.trim()}" is not id:Name:priceInCents`);
    return { id: part.slice(0, first).trim(), name: part.slice(first + 1, last).trim(), priceCents: Number(price) };
  });
  const parsed = ratesSchema.safeParse(rates);
  if (!parsed.success)
    throw new Error(`SHIPPING_RATES: ${parsed.error.issues[0]?.message ?? 'invalid'} (ids: a-z, 0-9, _ and -)`);
  if (new Set(rates.map((r) => r.id)).size !== rates.length) throw new Error('SHIPPING_RATES: rate ids must be unique');
  return parsed.data;
}

/**
 * The rates in force: an admin's `settings` row 'shippingRates' ([{ id, name, priceCents }], first is the
 * default) wins over the environment; a malformed row is ignored.
 */
export async function currentRates(db: Db, fromEnv: Rate[]): Promise<Rate[]> {
  const [row] = await db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, SHIPPING_RATES_SETTING));
  if (!row) return fromEnv;
  const parsed = ratesSchema.safeParse(row.value);
  return parsed.success ? parsed.data : fromEnv;
}

/** The chosen rate, or the default when none is chosen; an unknown id is a 400. */
export function pickRate(rates: Rate[], id: string | undefined): Rate {
  if (!id) return rates[0] ?? FREE_SHIPPING;
  const rate = rates.find((r) => r.id === id);
  if (!rate) throw new BadRequestError(ORDER_MESSAGES.unknownRate);
  return rate;
}
