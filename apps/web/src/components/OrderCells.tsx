import type { OrderSummary } from '@store/shared';
import { Link } from 'react-router';
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
