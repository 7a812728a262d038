import { formatMoney, type OrderSummary } from '@store/shared';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { OrderDetailsLink, OrderProgressCells, OrderStateNote, OrderStepsLine } from '#web/components/OrderCells.tsx';
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

const placedOn = (o: OrderSummary) => new Date(o.createdAt).toLocaleDateString();

/** One order as a card (narrow screens): id, date and total, then its steps and its Details link. */
function OrderCard({ order: o }: { order: OrderSummary }) {
  return (
    <li className="card" data-testid="my-order-card">
      <div className="card-body">
        <div className="d-flex justify-content-between align-items-start gap-3 mb-2">
          <div style={{ minWidth: 0 }}>
            <h3 className="h6 card-title mb-1">Order #{o.orderNumber}</h3>
            <p className="small text-body-secondary mb-0">
              Placed on {placedOn(o)} · <span className="font-monospace text-break">{o._id}</span>
            </p>
            <OrderStateNote order={o} />
          </div>
          <div className="text-end text-nowrap fw-semibold">
            {formatMoney(o.totalPrice)}
            <CouponNote order={o} />
          </div>
        </div>
        <OrderStepsLine order={o} />
        <OrderDetailsLink id={o._id} />
      </div>
    </li>
  );
}

/**
 * The signed-in user's orders, each with its Details link (the profile page's My Orders tab): a table from
 * 1400 px, where the tab holds all its columns with the ids whole, and cards below that (phones, tablets,
 * laptops), as the admin lists show them on a phone.
 */
export function MyOrders() {
  const { data, error, isPending } = useMyOrders(true);
  if (isPending) return <Loader label="Loading orders…" />;
  if (error) return <Message variant="danger">{error.message}</Message>;
  if (data.length === 0) return <Message>You have no orders yet.</Message>;
  return (
    <section aria-labelledby="my-orders-heading">
      <h2 id="my-orders-heading" className="visually-hidden">
        My Orders
      </h2>
      <div className="d-none d-xxl-block table-responsive">
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
                <td>
                  <span className="fw-semibold">#{o.orderNumber}</span>
                  <span className="d-block font-monospace small text-body-secondary">{o._id}</span>
                  <OrderStateNote order={o} />
                </td>
                <td className="text-nowrap">{placedOn(o)}</td>
                <td className="text-nowrap">
                  {formatMoney(o.totalPrice)}
                  <CouponNote order={o} />
                </td>
                <OrderProgressCells order={o} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="d-xxl-none list-unstyled d-grid gap-3 mb-0">
        {data.map((o) => (
          <OrderCard key={o._id} order={o} />
        ))}
      </ul>
    </section>
  );
}
