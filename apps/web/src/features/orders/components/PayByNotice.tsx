import { payWithinText } from '@store/shared';
import { useEffect, useState } from 'react';

const MINUTE_MS = 60_000;

/** Whole minutes left until `payBy` (a part of a minute counts as one), 0 once it has passed. */
export function minutesLeft(payBy: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(payBy) - now) / MINUTE_MS));
}

/**
 * How long an unpaid order still holds its items: 'Pay within 42 minutes or the items go back on sale',
 * counting down each minute. After the deadline the order is cancelled at the server's next sweep.
 */
export function PayByNotice({ payBy }: { payBy: string }) {
  const [now, setNow] = useState(() => Date.now());
  const left = minutesLeft(payBy, now);
  useEffect(() => {
    if (left === 0) return;
    // wakes when the count of minutes left changes
    const untilNext = (Date.parse(payBy) - Date.now()) % MINUTE_MS || MINUTE_MS;
    const timer = setTimeout(() => setNow(Date.now()), untilNext + 50);
    return () => clearTimeout(timer);
  }, [payBy, now, left]);
  return (
    <span className="d-block small mt-1" data-testid="pay-by" title={new Date(payBy).toLocaleString()}>
      {left > 0
        ? `Pay within ${payWithinText(left)} or the items go back on sale`
        : 'The time to pay is over: this order is being cancelled and its items go back on sale'}
    </span>
  );
}
