import { formatMoney, fromCents, toCents, type Order } from '@store/shared';
import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { ConfirmDialog } from '#web/components/ConfirmDialog.tsx';
import { Message } from '#web/components/Message.tsx';
import { failureText } from '#web/lib/api.ts';
import { refundStateOf } from '#web/lib/order-state.ts';
import { useCancelOrder, useRefundOrder } from '../api.ts';

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');

/** The order's cancellation and refunds, as the shopper and the admin read them. */
export function OrderMoneyState({ order }: { order: Order }) {
  const state = refundStateOf(order);
  return (
    <>
      {order.isCancelled && (
        <Message variant="warning">
          <span data-testid="cancelled-status">
            <strong>Cancelled</strong>
            {order.cancelledAt && ` on ${when(order.cancelledAt)}`}
          </span>
          {!order.isPaid && (
            <span className="d-block small mt-1">Its items went back on sale. Nothing was charged.</span>
          )}
        </Message>
      )}
      {state && (
        <div className="mb-3" data-testid="refund-status">
          <p className="mb-1">
            <Badge bg={state === 'Refunded' ? 'secondary' : 'info'} text={state === 'Refunded' ? undefined : 'dark'}>
              {state}
            </Badge>{' '}
            {formatMoney(order.refundedPrice)} of {formatMoney(order.totalPrice)}
          </p>
          <ul className="list-unstyled small mb-0">
            {order.refunds.map((r) => (
              <li key={r._id}>
                {formatMoney(r.amount)} on {when(r.createdAt)}
                {r.reason && ` · ${r.reason}`}
                {r.status !== 'COMPLETED' && ` · ${r.status === 'PENDING' ? 'waiting for PayPal' : r.status}`}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
}

/**
 * Cancel: the shopper's own unpaid order, or (admin) any order not shipped; a paid one is refunded in full
 * first, which the confirmation says.
 */
export function CancelOrderButton({ order, isAdmin }: { order: Order; isAdmin: boolean }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelOrder(order._id);
  const can = !order.isCancelled && !order.isShipped && (isAdmin || !order.isPaid);
  if (!can) return null;
  const left = fromCents(toCents(order.totalPrice) - toCents(order.refundedPrice));
  return (
    <>
      <Button variant="outline-danger" className="w-100 mt-3" onClick={() => setOpen(true)}>
        Cancel Order
      </Button>
      <ConfirmDialog
        show={open}
        title={`Cancel order #${order.orderNumber}?`}
        confirmLabel="Cancel order"
        cancelLabel="Keep order"
        busy={cancel.isPending}
        error={cancel.error ? failureText(cancel.error, 'Could not cancel the order') : null}
        onCancel={() => {
          cancel.reset();
          setOpen(false);
        }}
        onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setOpen(false) })}
      >
        <p className="mb-0">
          {order.isPaid && left > 0
            ? `${formatMoney(left)} will be refunded to the buyer through PayPal, and the items go back on sale.`
            : 'The items go back on sale. This cannot be undone.'}
        </p>
      </ConfirmDialog>
    </>
  );
}

/**
 * Admin: refund part or all of what is left, with a reason, choosing which items go back to stock. The
 * amount starts at what is left to refund.
 */
export function RefundButton({ order }: { order: Order }) {
  const leftCents = toCents(order.totalPrice) - toCents(order.refundedPrice);
  const [open, setOpen] = useState(false);
  if (!order.isPaid || leftCents <= 0) return null;
  return (
    <>
      <Button variant="outline-secondary" className="w-100 mt-3" onClick={() => setOpen(true)}>
        Refund
      </Button>
      {open && <RefundModal order={order} leftCents={leftCents} onClose={() => setOpen(false)} />}
    </>
  );
}

function RefundModal({ order, leftCents, onClose }: { order: Order; leftCents: number; onClose: () => void }) {
  const refund = useRefundOrder(order._id);
  const [amount, setAmount] = useState(fromCents(leftCents).toFixed(2));
  const [reason, setReason] = useState('');
  const [restock, setRestock] = useState<Record<string, number>>({});
  const [invalid, setInvalid] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cents = toCents(Number(amount));
    if (!/^\d+(\.\d{1,2})?$/.test(amount.trim()) || cents <= 0) return setInvalid('Enter an amount above $0.00');
    if (cents > leftCents) return setInvalid(`At most ${formatMoney(fromCents(leftCents))} is left to refund`);
    setInvalid(null);
    refund.mutate(
      {
        amount: fromCents(cents),
        reason: reason.trim(),
        restock: order.orderItems
          .filter((i) => (restock[i._id] ?? 0) > 0 && i.product)
          .map((i) => ({ product: i.product!, variant: i.selectedColorsVariants?._id || null, qty: restock[i._id]! })),
      },
      { onSuccess: onClose },
    );
  };
  const error = invalid ?? (refund.error ? failureText(refund.error, 'Refund failed') : null);

  return (
    <Modal show onHide={refund.isPending ? undefined : onClose} centered aria-labelledby="refund-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton={!refund.isPending} closeLabel="Close">
          <Modal.Title id="refund-title" as="h2" className="h5">
            Refund order #{order.orderNumber}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error && <Message variant="danger">{error}</Message>}
          <Form.Group className="mb-3" controlId="refund-amount">
            <Form.Label>Amount (USD)</Form.Label>
            <Form.Control
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-describedby="refund-left"
            />
            <Form.Text id="refund-left">{formatMoney(fromCents(leftCents))} left to refund</Form.Text>
          </Form.Group>
          <Form.Group className="mb-3" controlId="refund-reason">
            <Form.Label>Reason</Form.Label>
            <Form.Control maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
          </Form.Group>
          <fieldset>
            <legend className="fs-6">Put back in stock</legend>
            {order.orderItems.map((i) => (
              <Form.Group key={i._id} className="d-flex align-items-center gap-2 mb-2" controlId={`restock-${i._id}`}>
                <Form.Control
                  type="number"
                  min={0}
                  max={i.qty}
                  className="w-auto"
                  style={{ maxWidth: '6rem' }}
                  disabled={!i.product}
                  value={restock[i._id] ?? 0}
                  onChange={(e) =>
                    setRestock((r) => ({
                      ...r,
                      [i._id]: Math.min(i.qty, Math.max(0, Math.trunc(Number(e.target.value) || 0))),
                    }))
                  }
                />
                <Form.Label className="mb-0">
                  of {i.qty} × {i.name}
                  {i.selectedColorsVariants?.name && ` (${i.selectedColorsVariants.name})`}
                </Form.Label>
              </Form.Group>
            ))}
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={refund.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={refund.isPending}>
            {refund.isPending ? 'Refunding…' : 'Refund'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

const EVENT_LABELS: Record<string, string> = {
  placed: 'Placed',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  email: 'E-mail sent',
  'payment refund due': 'Payment to refund',
};

/** Admin: every change of the order, oldest first, with who made it. */
export function OrderHistory({ order }: { order: Order }) {
  if (!order.history?.length) return null;
  return (
    <section aria-labelledby="order-history-heading" className="mb-4">
      <h2 id="order-history-heading" className="h5">
        History
      </h2>
      <ol className="list-unstyled border-start ps-3 mb-0" data-testid="order-history">
        {order.history.map((e, i) => (
          <li key={i} className="mb-2">
            <span className="fw-semibold">{EVENT_LABELS[e.event] ?? e.event}</span>
            <span className="text-body-secondary small"> · {when(e.at)}</span>
            {e.by && <span className="text-body-secondary small"> · {e.by}</span>}
            {e.note && <span className="d-block small">{e.note}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
