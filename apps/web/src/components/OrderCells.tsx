import { formatMoney, type OrderSummary } from '@store/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { refundStateOf } from '../lib/order-state.ts';
import { paths } from '../lib/paths.ts';

/** The date a step of an order happened, or a ✗ that a screen reader reads as 'No' (order tables). */
export function DoneOn({ done, at }: { done: boolean; at: string | null }) {
  if (done) return <span className="text-nowrap">{at ? new Date(at).toLocaleDateString() : 'Yes'}</span>;
  return (
    <>
      <span className="text-danger-emphasis" aria-hidden="true">
        ✗
      </span>
      <span className="visually-hidden">No</span>
    </>
  );
}

/** The Details link of an order row, named for screen readers. */
export function OrderDetailsLink({ id }: { id: string }) {
  return (
    <Link to={paths.order(id)} className="btn btn-sm btn-outline-primary" aria-label={`Details of order ${id}`}>
      Details
    </Link>
  );
}

/** 'Paid: date · Shipped: ✗ · Delivered: ✗' on one wrapping line (the order cards of narrow screens). */
export function OrderStepsLine({ order, children }: { order: OrderSummary; children?: ReactNode }) {
  return (
    <p className="small mb-2 d-flex flex-wrap align-items-center column-gap-3 row-gap-1">
      {children}
      <span>
        Paid: <DoneOn done={order.isPaid} at={order.paidAt} />
      </span>
      <span>
        Shipped: <DoneOn done={order.isShipped} at={order.shippedAt} />
      </span>
      <span>
        Delivered: <DoneOn done={order.isDelivered} at={order.deliveredAt} />
      </span>
    </p>
  );
}

/** The Paid, Shipped and Delivered cells and the Details link of an order row (My Orders, admin orders). */
export function OrderProgressCells({ order }: { order: OrderSummary }) {
  return (
    <>
      <td>
        <DoneOn done={order.isPaid} at={order.paidAt} />
      </td>
      <td>
        <DoneOn done={order.isShipped} at={order.shippedAt} />
      </td>
      <td>
        <DoneOn done={order.isDelivered} at={order.deliveredAt} />
      </td>
      <td>
        <OrderDetailsLink id={order._id} />
      </td>
    </>
  );
}

/** Cancelled, Refunded or Partially refunded (with the amount), under an order's number; nothing otherwise. */
export function OrderStateNote({
  order,
}: {
  order: Pick<OrderSummary, 'isCancelled' | 'refundedPrice' | 'totalPrice'>;
}) {
  const refunded = refundStateOf(order);
  if (!order.isCancelled && !refunded) return null;
  return (
    <span className="d-flex flex-wrap gap-1 mt-1" data-testid="order-state">
      {order.isCancelled && <span className="badge text-bg-secondary">Cancelled</span>}
      {refunded && (
        <span className="badge text-bg-info">
          {refunded} {formatMoney(order.refundedPrice)}
        </span>
      )}
    </span>
  );
}
