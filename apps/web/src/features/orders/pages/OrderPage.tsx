import { countryName, TOAST_MS, toCents, type Order } from '@store/shared';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Loader } from '#web/components/Loader.tsx';
import { Message } from '#web/components/Message.tsx';
import { OrderItemList } from '#web/components/OrderItemList.tsx';
import { PriceSummary } from '#web/components/PriceSummary.tsx';
import { TimedToast, type ToastContent } from '#web/components/TimedToast.tsx';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { ApiError, failureText } from '#web/lib/api.ts';
import { useAuth } from '#web/lib/auth.ts';
import { useDeliverOrder, useOrder } from '../api.ts';
import { OrderAccessPrompt } from '../components/OrderAccessPrompt.tsx';
import { CancelOrderButton, OrderHistory, OrderMoneyState, RefundButton } from '../components/OrderLifecycle.tsx';
import { PayByNotice } from '../components/PayByNotice.tsx';
import { PaymentSection } from '../components/PaymentSection.tsx';
import { ShipModal } from '../components/ShipModal.tsx';
import { TrackingList } from '../components/TrackingList.tsx';
import { VerifyAccessModal } from '../components/VerifyAccessModal.tsx';

/**
 * Guest order access: after proving the order's e-mail address and postal code the visitor is treated as a
 * guest (named GUEST, no token). A signed-in registered user stays who they are.
 */
function treatAsGuest(o: Order) {
  const { userInfo, setUserInfo } = useAuth.getState();
  if (userInfo && !userInfo.isGuest) return;
  setUserInfo({
    _id: o.user._id ?? userInfo?._id ?? `order-${o._id}`,
    username: o.user.username,
    firstName: o.user.firstName,
    lastName: o.user.lastName,
    email: o.user.email,
    isGuest: true,
  });
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '');
const needsAccess = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);

export default function OrderPage() {
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const isAdmin = useAuth((s) => Boolean(s.userInfo?.isAdmin && !s.userInfo.isGuest));
  const [toast, setToast] = useState<ToastContent | null>(null);
  const [verifyOpen, setVerifyOpen] = useState(false);
  const [shipOpen, setShipOpen] = useState(false);
  const order = useOrder(id);
  const deliver = useDeliverOrder(id);
  useDocumentTitle(order.data ? `Order #${order.data.orderNumber}` : 'Order');

  // 'Order placed successfully!' after placing the order, shown for 3 s; the history entry forgets it
  useEffect(() => {
    const state = location.state as { orderPlaced?: boolean } | null;
    if (state?.orderPlaced) {
      setToast({ title: 'Order', body: 'Order placed successfully!', variant: 'success' });
      navigate(location.pathname, { replace: true, state: null });
    }
  }, [location.state, location.pathname, navigate]);

  // a signed-out visitor is offered to sign in first; a guest session gets the e-mail and postal code check
  const signedOut = useAuth((s) => !s.userInfo);
  useEffect(() => {
    if (needsAccess(order.error) && !signedOut) setVerifyOpen(true);
  }, [order.error, signedOut]);

  if (order.isPending) return <Loader label="Loading order…" />;

  if (!order.data) {
    return (
      <>
        <h1 className="h3 mb-3">Order</h1>
        {needsAccess(order.error) ? (
          <OrderAccessPrompt orderId={id} signedOut={signedOut} onVerify={() => setVerifyOpen(true)} />
        ) : (
          <Message variant="danger">{failureText(order.error, 'Failed to load order')}</Message>
        )}
        <VerifyAccessModal
          orderId={id}
          show={verifyOpen}
          onClose={() => setVerifyOpen(false)}
          onVerified={() => {
            setVerifyOpen(false);
            void order.refetch().then(({ data }) => data && treatAsGuest(data));
          }}
        />
      </>
    );
  }

  const o = order.data;
  const a = o.shippingAddress;
  const price = {
    itemsCents: toCents(o.itemsPrice),
    discountCents: toCents(o.discountPrice ?? 0),
    shippingCents: toCents(o.shippingPrice),
    taxCents: toCents(o.taxPrice),
    totalCents: toCents(o.totalPrice),
  };

  return (
    <>
      <h1 className="h3 mb-1 text-break">Order #{o.orderNumber}</h1>
      <p className="text-body-secondary small mb-4">
        Placed on {when(o.createdAt)} · <span className="text-break">Order ID {o._id}</span>
      </p>
      <div className="row g-4">
        <div className="col-lg-8">
          <section aria-labelledby="order-shipping-heading" className="mb-4">
            <h2 id="order-shipping-heading" className="h5">
              Shipping
            </h2>
            <p className="mb-1">
              <strong>Name: </strong>
              {a.shipToFirstName} {a.shipToLastName}
            </p>
            <p className="mb-1">
              <strong>Email: </strong>
              <a href={`mailto:${o.user.email}`}>{o.user.email}</a>
            </p>
            <p className="mb-2">
              <strong>Address: </strong>
              {a.address1}
              {a.address2 && `, ${a.address2}`}, {a.city}, {a.state} {a.postalCode}, {countryName(a.country)}
            </p>
            <Message variant={o.isShipped ? 'success' : 'warning'}>
              {o.isShipped ? `Shipped on ${when(o.shippedAt)}` : 'Not Shipped'}
            </Message>
            <Message variant={o.isDelivered ? 'success' : 'warning'}>
              {o.isDelivered ? `Delivered on ${when(o.deliveredAt)}` : 'Not Delivered'}
            </Message>
            <TrackingList order={o} isAdmin={isAdmin} />
          </section>
          <section aria-labelledby="order-payment-heading" className="mb-4">
            <h2 id="order-payment-heading" className="h5">
              Payment Method
            </h2>
            <p className="mb-2">
              <strong>Method: </strong>
              {o.paymentMethod}
            </p>
            {o.isPaid ? (
              <Message variant="success">
                <span data-testid="paid-status">Paid on {when(o.paidAt)}</span>
                {o.paymentResult && (
                  <span className="d-block small mt-1">
                    Transaction {o.paymentResult.id} · {o.paymentResult.status}
                    {o.paymentResult.email_address && ` · ${o.paymentResult.email_address}`}
                  </span>
                )}
                {o.isTestPayment && (
                  <span className="d-block small mt-1 fw-semibold">Test-mode payment: no money moved.</span>
                )}
              </Message>
            ) : (
              <Message variant="warning">
                <span data-testid="paid-status">{o.isCancelled ? 'Cancelled' : 'Not Paid'}</span>
                {!o.isCancelled && o.payBy && <PayByNotice payBy={o.payBy} />}
              </Message>
            )}
            <OrderMoneyState order={o} />
          </section>
          <OrderItemList
            items={o.orderItems.map((i) => ({
              key: i._id,
              product: i.product,
              name: i.name,
              image: i.image,
              price: i.price,
              qty: i.qty,
              variantName: i.selectedColorsVariants?.name,
            }))}
          />
        </div>
        <div className="col-lg-4">
          <PriceSummary price={price} discount={o.couponCode ? { code: o.couponCode } : null}>
            {deliver.error && (
              <div className="mt-3">
                <Message variant="danger">{deliver.error.message}</Message>
              </div>
            )}
            {!o.isPaid && !o.isCancelled && <PaymentSection order={o} />}
            {isAdmin && o.isPaid && !o.isShipped && (
              <Button className="w-100 mt-3" disabled={deliver.isPending} onClick={() => setShipOpen(true)}>
                Mark As Shipped
              </Button>
            )}
            {isAdmin && o.isPaid && o.isShipped && !o.isDelivered && (
              <Button className="w-100 mt-3" disabled={deliver.isPending} onClick={() => deliver.mutate()}>
                Mark As Delivered
              </Button>
            )}
            {isAdmin && <RefundButton order={o} />}
            <CancelOrderButton order={o} isAdmin={isAdmin} />
          </PriceSummary>
        </div>
      </div>
      {isAdmin && <OrderHistory order={o} />}
      {isAdmin && (
        <ShipModal
          key={o.updatedAt}
          order={o}
          show={shipOpen}
          onClose={() => setShipOpen(false)}
          onShipped={() => setShipOpen(false)}
        />
      )}
      <TimedToast toast={toast} delay={TOAST_MS.orderPlaced} onClose={() => setToast(null)} />
    </>
  );
}
