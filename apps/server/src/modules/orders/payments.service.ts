import { ERROR_CODES, ORDER_MESSAGES, formatMoney, fromCents, type Order, type PayOrderInput } from '@store/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { PaymentRejectedError, captureIdOf, type PaymentVerifier } from '#server/integrations/paypal/index.ts';
import { BadRequestError, ConflictError, ForbiddenError } from '#server/lib/errors.ts';
import { uniqueViolation } from '#server/lib/sql.ts';
import type { OrderRow } from './orders-read.repository.ts';
import { findOrder, orderView } from './orders-read.service.ts';
import { lifecycleRepository } from './lifecycle.repository.ts';
import { ordersRepository as repo } from './orders.repository.ts';

/** Who may pay: the order's owner, or whoever holds a valid guest access token for it. */
export interface Payer {
  userId?: string;
  hasAccessToken?: boolean;
}

function refuseState(order: OrderRow): void {
  if (order.isCancelled) throw new BadRequestError(ORDER_MESSAGES.cancelled);
  if (order.isPaid) throw alreadyPaid();
}

const alreadyPaid = () => new ConflictError(ORDER_MESSAGES.alreadyPaid, ERROR_CODES.ALREADY_PAID);

type VerifiedPayment = Awaited<ReturnType<PaymentVerifier['verify']>>;

/** The payments row of a verified payment (its provider id is unique: one payment, one order). */
const paymentRow = (orderId: string, p: VerifiedPayment, status: string = p.status) => ({
  orderId,
  captureId: p.raw && typeof p.raw === 'object' ? captureIdOf(p.raw as Record<string, unknown>) : '',
  provider: p.provider,
  providerPaymentId: p.providerPaymentId,
  status,
  amountCents: p.amountCents,
  currency: p.currency,
  payerEmail: p.payerEmail.slice(0, 254),
  raw: p.raw,
});

/**
 * A cancelled order (the unpaid-order sweeper gave its stock back) is never paid. When the shopper's money
 * did move (a real PayPal payment, approved as the hold ran out), the payment is recorded as REFUND_DUE
 * (the reconciliation sweep refunds it and mails the shopper) and the shopper told so; a payment that does not verify, or a test-mode one, gets the
 * plain refusal.
 */
async function refuseCancelled(
  db: Db,
  order: OrderRow,
  verify: () => Promise<VerifiedPayment>,
  log?: FastifyBaseLogger,
): Promise<never> {
  const payment = await verify().catch(() => undefined);
  if (!payment || payment.provider === 'test') throw new BadRequestError(ORDER_MESSAGES.cancelled);
  try {
    await db.transaction(async (tx) => {
      await repo.insertPayment(tx, paymentRow(order.id, payment, 'REFUND_DUE'));
      await lifecycleRepository.addEvent(
        tx,
        order.id,
        'payment refund due',
        'paypal',
        `${formatMoney(fromCents(payment.amountCents))} arrived after the order was cancelled`,
      );
    });
    log?.error(
      { orderId: order.id, paymentId: payment.providerPaymentId },
      'payment for a cancelled order: refund due',
    );
  } catch (err) {
    // the same payment again: it is on record already
    if (!uniqueViolation(err)) throw err;
  }
  throw new BadRequestError(ORDER_MESSAGES.cancelledRefund);
}

/**
 * PUT /api/orders/{id}/pay: the provider confirms the payment first (outside any transaction: it is a
 * network call); then one transaction marks the order paid, only if still unpaid and live, and records
 * the payment, whose provider id is unique: a PayPal payment can pay one order only.
 */
export async function payOrder(
  db: Db,
  verifier: PaymentVerifier,
  payer: Payer,
  orderId: string,
  input: PayOrderInput,
  log?: FastifyBaseLogger,
): Promise<Order> {
  const order = await findOrder(db, orderId);
  if (!payer.hasAccessToken && (!payer.userId || order.userId !== payer.userId))
    throw new ForbiddenError('Not authorized to pay this order');
  if (input.orderId && input.orderId !== order.id) throw new BadRequestError('Order id does not match');
  if (order.isPaid) refuseState(order);

  const claim = input.paymentResult;
  const verify = () =>
    verifier.verify({ paymentId: claim?.id, payerEmail: claim?.email_address ?? claim?.email }, order.totalCents);
  if (order.isCancelled) {
    return refuseCancelled(db, order, verify, log);
  }
  const payment = await verify();

  let paid: OrderRow | undefined;
  try {
    paid = await db.transaction(async (tx) => {
      const row = await repo.markPaid(tx, order.id, {
        id: payment.providerPaymentId,
        status: payment.status,
        update_time: payment.updateTime,
        email_address: payment.payerEmail || (claim?.email_address ?? claim?.email ?? ''),
      });
      if (!row) return undefined;
      await repo.insertPayment(tx, paymentRow(order.id, payment));
      await lifecycleRepository.addEvent(
        tx,
        order.id,
        'paid',
        payment.provider === 'test' ? 'test mode' : 'paypal',
        `${formatMoney(fromCents(payment.amountCents))} by the browser`,
      );
      return row;
    });
  } catch (err) {
    if (uniqueViolation(err)) throw new PaymentRejectedError(ORDER_MESSAGES.paymentUsed);
    throw err;
  }
  if (!paid) {
    // another request paid (or cancelled) it between the check and the update
    refuseState(await findOrder(db, order.id));
    throw alreadyPaid();
  }
  return orderView(db, paid);
}
