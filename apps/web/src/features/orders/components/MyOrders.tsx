import { formatMoney, type OrderSummary } from '@store/shared';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { OrderProgressCells } from '#web/components/OrderCells.tsx';
import { useMyOrders } from '../api.ts';

/** The discount code an order used, when the list's answer carries it (the total is what was paid, after it). */
function CouponNote({ order }: { order: OrderSummary & { couponCode?: string | null } }) {
  if (!order.couponCode) return null;
  return (
    <span className="d-block small text-body-secondary" data-testid="order-coupon">
      with <span className="font-monospace">{order.couponCode}</span>
    </span>
  );
}

/** The signed-in user's orders as a table, each with its Details link (the profile page's My Orders tab). */
export function MyOrders() {
  const { data, error, isPending } = useMyOrders(true);
  if (isPending) return <Loader label="Loading orders…" />;
  if (error) return <Message variant="danger">{error.message}</Message>;
  if (data.length === 0) return <Message>You have no orders yet.</Message>;
  return (
    <div className="table-responsive">
      <h2 className="visually-hidden">My Orders</h2>
      <table className="table table-striped table-hover table-sm align-middle">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">DATE</th>
            <th scope="col">TOTAL</th>
            <th scope="col">PAID</th>
            <th scope="col">SHIPPED</th>
            <th scope="col">DELIVERED</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((o) => (
            <tr key={o._id}>
              <td className="font-monospace small">{o._id}</td>
              <td>{new Date(o.createdAt).toLocaleDateString()}</td>
              <td>
                {formatMoney(o.totalPrice)}
                <CouponNote order={o} />
              </td>
              <OrderProgressCells order={o} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
