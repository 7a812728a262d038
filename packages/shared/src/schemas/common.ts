import { z } from 'zod';

/** The largest amount a price or total can be: PostgreSQL stores them as integer cents (at most 2^31 - 1). */
export const AMOUNT_MAX = 21_474_836.47;

/** An amount filter of a list (minPrice, maxTotal, …) from 0 to AMOUNT_MAX, read from the query string. */
export const amountFilter = (name: string) =>
  z.coerce
    .number({ error: `${name}: must be a number` })
    .min(0, `${name}: must be 0 or more`)
    .max(AMOUNT_MAX, `${name}: must be at most ${AMOUNT_MAX}`)
    .optional();

export const NOTHING_TO_UPDATE = 'Nothing to update';

/** Forms send numbers as text: '' is "not given", '12.5' is 12.5; anything else passes through. */
export const numberish = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : v);

/** At most two decimals (cents), allowing for binary floating point. */
export const twoDecimals = (v: number) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;

/** Whether an update carries a change: a field other than the `ignored` ones (which name nothing) is set. */
export function hasChanges(update: object, ignored: readonly string[] = []): boolean {
  return Object.entries(update).some(([k, v]) => v !== undefined && !ignored.includes(k));
}

/**
 * An update whose fields are all optional must change at least one: a body with none of them (unknown
 * fields are dropped first) is refused with 'Nothing to update'.
 */
export function changesSomething<T extends z.ZodObject>(schema: T, ignored: readonly string[] = []): T {
  return schema.refine((value: object) => hasChanges(value, ignored), { message: NOTHING_TO_UPDATE });
}
