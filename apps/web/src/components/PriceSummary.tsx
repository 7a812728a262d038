import { formatMoney, fromCents, type CouponType, type OrderPrice } from '@store/shared';
import type { ReactNode } from 'react';

/** The discount code an order carries; without its type, a code that took nothing off the items gave free shipping. */
export interface SummaryDiscount {
  code: string;
  type?: CouponType;
}

/** What the discount line shows: the amount taken off the items, or 'Free shipping'. */
export function discountText(price: Pick<OrderPrice, 'discountCents'>, discount: SummaryDiscount): string {
  const freeShipping = discount.type ? discount.type === 'free_shipping' : price.discountCents === 0;
  return freeShipping ? 'Free shipping' : `-${formatMoney(fromCents(price.discountCents))}`;
}

/**
 * Items / Discount (CODE) when a code applies / Shipping (FREE when 0) / Tax / Total, in cents from the
 * shared pricing function.
 */
export function PriceSummary({
  price,
  discount,
  children,
}: {
  price: OrderPrice;
  discount?: SummaryDiscount | null;
  children?: ReactNode;
}) {
  type Row = [label: string, value: string, testId: string];
  const discountRow: Row[] = discount
    ? [[`Discount (${discount.code})`, discountText(price, discount), 'summary-discount']]
    : [];
  const rows: Row[] = [
    ['Items', formatMoney(fromCents(price.itemsCents)), 'summary-items'],
    ...discountRow,
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
            <div key={id} className="d-flex justify-content-between gap-2 border-bottom py-2">
              <dt className="fw-normal text-break">{label}</dt>
              <dd className="mb-0 text-nowrap" data-testid={id}>
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
