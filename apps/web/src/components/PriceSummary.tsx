import { formatMoney, fromCents, type OrderPrice } from '@store/shared';
import type { ReactNode } from 'react';

/** Items / Shipping (FREE when 0) / Tax / Total, in cents from the shared pricing function. */
export function PriceSummary({ price, children }: { price: OrderPrice; children?: ReactNode }) {
  const rows: [string, string, string][] = [
    ['Items', formatMoney(fromCents(price.itemsCents)), 'summary-items'],
    ['Shipping', price.shippingCents === 0 ? 'FREE' : formatMoney(fromCents(price.shippingCents)), 'summary-shipping'],
    ['Tax', formatMoney(fromCents(price.taxCents)), 'summary-tax'],
  ];
  return (
    <section className="card" aria-labelledby="order-summary-heading">
      <div className="card-body">
        <h2 id="order-summary-heading" className="h5">
          Order Summary
        </h2>
        <dl className="mb-0">
          {rows.map(([label, value, id]) => (
            <div key={label} className="d-flex justify-content-between border-bottom py-2">
              <dt className="fw-normal">{label}</dt>
              <dd className="mb-0" data-testid={id}>
                {value}
              </dd>
            </div>
          ))}
          <div className="d-flex justify-content-between py-2 fw-bold">
            <dt>Total</dt>
            <dd className="mb-0" data-testid="summary-total">
              {formatMoney(fromCents(price.totalCents))}
            </dd>
          </div>
        </dl>
        {children}
      </div>
    </section>
  );
}
