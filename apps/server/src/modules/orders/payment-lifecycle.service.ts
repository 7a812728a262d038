import {
  ERROR_CODES,
  ORDER_MESSAGES,
  formatMoney,
  fromCents,
  toCents,
  type Order,
  type RefundInput,
} from '@store/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { UpstreamError, isRecord } from '#server/integrations/http.ts';
import {
  PaymentRejectedError,
  PaypalRefusal,
  captureIdOf,
  checkPaypalOrder,
  customIdOf,
  type PaymentGateway,
} from '#server/integrations/paypal/index.ts';
import { BadGatewayError, BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '#server/lib/errors.ts';
import { newId } from '#server/lib/ids.ts';
import {
  enqueueMail,
  orderCancelledMail,
  orderRefundedMail,
  paymentAfterCancelMail,
  type MailMessage,
} from '#server/lib/mailer/index.ts';
import { pgErrorOf, uniqueViolation } from '#server/lib/sql.ts';
import { lifecycleRepository as life, type RefundRow } from './lifecycle.repository.ts';
import { ordersReadRepository, type OrderRow } from './orders-read.repository.ts';
import { findOrder, orderView } from './orders-read.service.ts';
import { ordersRepository as repo } from './orders.repository.ts';
import type { Payer } from './payments.service.ts';

type Json = Record<string, unknown>;
const asJson = (v: unknown): Json => (isRecord(v) ? v : {});

/** What the payment lifecycle needs from the running server. */
export interface LifecycleContext {
  db: Db;
  gateway: PaymentGateway;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The catalogue answers showing these products go (their stock came back). */
  stockReturned(products: string[]): Promise<unknown> | void;
  /** Mail was queued: send it now rather than at the worker's next round. */
  mailQueued(): void;
}

/** How a payment reached the store: the shopper's browser, PayPal's webhook, the sweep, or test mode. */
export type PaymentPath = 'capture' | 'webhook' | 'sweep' | 'test mode';

export type Settled = 'recorded' | 'already recorded' | 'refunded' | 'refund due';

const unavailable = () => new BadGatewayError(ORDER_MESSAGES.paypalUnavailable);
const refOf = (o: OrderRow) => ({ to: o.email, name: o.firstName, orderId: o.id, orderNumber: o.orderNumber });

function mayPay(order: OrderRow, payer: Payer): void {
  if (!payer.hasAccessToken && (!payer.userId || order.userId !== payer.userId))
    throw new ForbiddenError('Not authorized to pay this order');
}

function refusePayState(order: OrderRow): void {
  if (order.isCancelled) throw new BadRequestError(ORDER_MESSAGES.cancelled);
  if (order.isPaid) throw new ConflictError(ORDER_MESSAGES.alreadyPaid, ERROR_CODES.ALREADY_PAID);
}

/** Runs a provider call, turning "no answer" into the shopper's 502 (nothing was recorded). */
async function provider<T>(ctx: LifecycleContext, what: string, orderId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof UpstreamError) {
      (err.status === 401 || err.status === 403 ? ctx.log.error : ctx.log.warn).call(
        ctx.log,
        { orderId, status: err.status },
        `PayPal ${what} failed: ${err.message}`,
      );
      throw unavailable();
    }
    throw err;
  }
}

/**
 * POST /api/orders/{id}/paypal: creates the PayPal order for the amount this server computed, with the
 * store order's id as its custom_id, and remembers it so the sweep can ask about it later.
 */
export async function startPaypal(ctx: LifecycleContext, payer: Payer, orderId: string): Promise<{ id: string }> {
  const order = await findOrder(ctx.db, orderId);
  mayPay(order, payer);
  refusePayState(order);
  if (ctx.gateway.mode === 'disabled') throw new BadRequestError(ORDER_MESSAGES.paypalNotConfigured);
  const id = await provider(ctx, 'create', order.id, () =>
    ctx.gateway.createOrder({ orderId: order.id, orderNumber: order.orderNumber, totalCents: order.totalCents }),
  ).catch((err: unknown) => {
    if (err instanceof PaypalRefusal) {
      ctx.log.error({ orderId, issue: err.issue }, 'PayPal refused to create an order');
      throw unavailable();
    }
    throw err;
  });
  await life.addCheckout(ctx.db, id, order.id);
  return { id };
}

/**
 * POST /api/orders/{id}/paypal/capture: captures the PayPal order the buttons approved and records the
 * payment. A PayPal order this server did not create for this store order is refused; one recorded
 * already (by the webhook or the sweep) answers the paid order.
 */
export async function capturePaypal(
  ctx: LifecycleContext,
  payer: Payer,
  orderId: string,
  paypalOrderId: string,
): Promise<Order> {
  const order = await findOrder(ctx.db, orderId);
  mayPay(order, payer);
  const checkout = await life.checkout(ctx.db, paypalOrderId);
  if (!checkout || checkout.orderId !== order.id) throw new BadRequestError(ORDER_MESSAGES.paypalOrderUnknown);
  if (order.isPaid && order.paymentResult?.id === paypalOrderId) return orderView(ctx.db, order);
  // a cancelled (or otherwise paid) order is not captured: the approval lapses and no money moves
  refusePayState(order);
  const captured = await provider(ctx, 'capture', order.id, () =>
    ctx.gateway.captureOrder(paypalOrderId, { orderId: order.id, totalCents: order.totalCents }),
  ).catch((err: unknown) => {
    if (err instanceof PaypalRefusal) throw new PaymentRejectedError(paypalDeclined(err.issue));
    throw err;
  });
  const outcome = await settle(ctx, order.id, captured, ctx.gateway.mode === 'test' ? 'test mode' : 'capture');
  const now = await findOrder(ctx.db, order.id);
  if (outcome === 'refunded' || outcome === 'refund due') throw new BadRequestError(ORDER_MESSAGES.cancelledRefund);
  return orderView(ctx.db, now);
}

function paypalDeclined(issue: string): string {
  if (issue === 'INSTRUMENT_DECLINED') return 'PayPal declined the payment method: please choose another one';
  if (issue === 'ORDER_NOT_APPROVED') return 'The payment was not approved in PayPal yet';
  return `PayPal did not complete the payment${issue ? ` (${issue})` : ''}`;
}

/**
 * Records what a PayPal order says about a store order's payment, whichever path saw it first: one
 * transaction marks the order paid (only if unpaid and live) and records the payment under PayPal's
 * unique order id, with the history. The second path to arrive finds it recorded. A completed payment
 * for an order that is cancelled, or already paid by another payment, is refunded at once (the shopper
 * is told); if PayPal refuses, it stays listed for the admin as REFUND_DUE and the sweep tries again.
 */
export async function settle(
  ctx: LifecycleContext,
  orderId: string,
  paypalOrder: Json,
  via: PaymentPath,
): Promise<Settled> {
  const order = await findOrder(ctx.db, orderId);
  const checked = checkPaypalOrder(paypalOrder, order.totalCents);
  const paypalOrderId = checked.providerPaymentId;
  const captureId = captureIdOf(paypalOrder);
  const provider = via === 'test mode' || paypalOrder.testMode === true ? 'test' : 'paypal';
  const payment = {
    orderId: order.id,
    provider,
    providerPaymentId: paypalOrderId,
    amountCents: checked.amountCents,
    currency: checked.currency,
    payerEmail: checked.payerEmail.slice(0, 254),
    captureId,
    raw: paypalOrder,
  };
  let recorded: OrderRow | undefined;
  try {
    recorded = await ctx.db.transaction(async (tx) => {
      const row = await repo.markPaid(tx, order.id, {
        id: paypalOrderId,
        status: 'COMPLETED',
        update_time: checked.updateTime,
        email_address: checked.payerEmail,
      });
      if (!row) return undefined;
      await repo.insertPayment(tx, { ...payment, status: 'COMPLETED' });
      await life.addEvent(
        tx,
        order.id,
        'paid',
        via === 'test mode' ? 'test mode' : 'paypal',
        `${formatMoney(fromCents(checked.amountCents))} by ${via}`,
      );
      await life.resolveCheckout(tx, paypalOrderId);
      return row;
    });
  } catch (err) {
    if (!uniqueViolation(err)) throw err;
  }
  if (recorded) {
    ctx.log.info({ orderId, paypalOrderId, via }, 'payment recorded');
    return 'recorded';
  }
  const now = await findOrder(ctx.db, order.id);
  const known = await life.paymentByProviderId(ctx.db, provider, paypalOrderId);
  if (known || (now.isPaid && now.paymentResult?.id === paypalOrderId)) {
    await life.resolveCheckout(ctx.db, paypalOrderId);
    return 'already recorded';
  }
  // paid for an order that cannot take it: cancelled, or paid already by another payment
  return refundOrphan(ctx, now, { ...payment, status: 'REFUND_DUE' }, via);
}

async function refundOrphan(
  ctx: LifecycleContext,
  order: OrderRow,
  payment: Parameters<typeof repo.insertPayment>[1],
  via: PaymentPath,
): Promise<Settled> {
  const amount = fromCents(payment.amountCents);
  const why = order.isCancelled ? 'the order was cancelled' : 'the order was already paid';
  try {
    await ctx.db.transaction(async (tx) => {
      await repo.insertPayment(tx, payment);
      await life.addEvent(tx, order.id, 'payment refund due', via, `${formatMoney(amount)} arrived after ${why}`);
      await life.resolveCheckout(tx, payment.providerPaymentId);
    });
  } catch (err) {
    // the same payment again: whoever recorded it first refunds it
    if (uniqueViolation(err)) return 'already recorded';
    throw err;
  }
  ctx.log.warn({ orderId: order.id, paypalOrderId: payment.providerPaymentId }, `payment after ${why}: refunding`);
  const saved = await life.paymentByProviderId(ctx.db, payment.provider, payment.providerPaymentId);
  return (await retryOrphanRefund(ctx, saved!, order)) ? 'refunded' : 'refund due';
}

/** Refunds a REFUND_DUE payment in full (the same request id every time); true when PayPal took it. */
async function retryOrphanRefund(
  ctx: LifecycleContext,
  payment: NonNullable<Awaited<ReturnType<typeof life.paymentByProviderId>>>,
  order: OrderRow,
  firstTry = true,
): Promise<boolean> {
  let refunded = false;
  try {
    if (payment.provider !== 'test')
      await ctx.gateway.refund(payment.captureId || captureIdOf(asJson(payment.raw)), {
        amountCents: payment.amountCents,
        requestId: `orphan-${payment.id}`,
        note: `Order #${order.orderNumber} was cancelled`,
        invoiceId: `${order.orderNumber}-${payment.id.slice(-6)}`,
      });
    refunded = true;
  } catch (err) {
    if (!(err instanceof UpstreamError) && !(err instanceof PaypalRefusal)) throw err;
    ctx.log.error(
      { orderId: order.id, paymentId: payment.id, err: err.message },
      'automatic refund failed: refund due',
    );
  }
  const mail = paymentAfterCancelMail(ctx.publicUrl, {
    ...refOf(order),
    amount: fromCents(payment.amountCents),
    refunded,
  });
  await ctx.db.transaction(async (tx) => {
    if (refunded) {
      await life.setPaymentStatus(tx, payment.id, 'REFUNDED');
      await life.addEvent(
        tx,
        order.id,
        'refunded',
        'system',
        `${formatMoney(fromCents(payment.amountCents))} (payment after cancellation)`,
      );
    }
    // the shopper hears once when it first fails, and once when the money is back
    if (refunded || firstTry) await queueMail(tx, order.id, mail);
  });
  ctx.mailQueued();
  return refunded;
}

async function queueMail(tx: Parameters<typeof enqueueMail>[0], orderId: string, mail: MailMessage) {
  await enqueueMail(tx, mail);
  await life.addEvent(tx, orderId, 'email', 'system', mail.subject.replace(/ \| .*$/, ''));
}

/**
 * POST /api/paypal/webhook, after PayPal verified the delivery: an approved PayPal order of an unpaid
 * order is captured; a completed capture is recorded (read back from PayPal, so the amount is PayPal's).
 * Answers what happened, for the log; events about orders this store does not know change nothing.
 */
export async function handleWebhookEvent(ctx: LifecycleContext, event: Json): Promise<string> {
  const type = typeof event.event_type === 'string' ? event.event_type : '';
  const resource = isRecord(event.resource) ? event.resource : {};
  let paypalOrderId = '';
  if (type === 'CHECKOUT.ORDER.APPROVED' || type === 'CHECKOUT.ORDER.COMPLETED')
    paypalOrderId = typeof resource.id === 'string' ? resource.id : '';
  else if (type === 'PAYMENT.CAPTURE.COMPLETED') {
    const related = isRecord(resource.supplementary_data) ? resource.supplementary_data.related_ids : undefined;
    paypalOrderId = isRecord(related) && typeof related.order_id === 'string' ? related.order_id : '';
  } else return 'ignored';
  if (!/^[A-Za-z0-9-]{1,64}$/.test(paypalOrderId)) return 'no order';
  const checkout = await life.checkout(ctx.db, paypalOrderId);
  const storeOrderId =
    checkout?.orderId ?? (typeof resource.custom_id === 'string' ? resource.custom_id : customIdOf(resource));
  if (!storeOrderId) return 'unknown order';
  const order = await findOrder(ctx.db, storeOrderId).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  if (!order) return 'unknown order';
  if (order.isPaid && order.paymentResult?.id === paypalOrderId) return 'already recorded';
  let paypalOrder = await ctx.gateway.getOrder(paypalOrderId);
  if (!paypalOrder) return 'unknown at PayPal';
  if (customIdOf(paypalOrder) && customIdOf(paypalOrder) !== order.id) return 'another order';
  if (paypalOrder.status === 'APPROVED') {
    if (order.isPaid || order.isCancelled) return 'not captured: order cannot take it';
    paypalOrder = await ctx.gateway.captureOrder(paypalOrderId, { orderId: order.id, totalCents: order.totalCents });
  }
  if (paypalOrder.status !== 'COMPLETED') return `PayPal order ${String(paypalOrder.status)}`;
  await life.addCheckout(ctx.db, paypalOrderId, order.id);
  return settle(ctx, order.id, paypalOrder, 'webhook');
}

const ABANDONED_MS = 72 * 3_600_000;
const CAPTURE_GRACE_MS = 120_000;

/**
 * One round of the reconciliation sweep: asks PayPal about the open checkouts (leased to this process,
 * so several processes never ask about the same one at once) and records the payments it finds
 * completed; captures an approved one the browser left behind (after a grace period in which the
 * browser would have done it); closes checkouts PayPal does not know, voided ones, and ones abandoned
 * for three days. Then asks again about refunds PayPal has not confirmed and automatic refunds it refused.
 */
export async function reconcile(
  ctx: LifecycleContext,
  leaseMs: number,
): Promise<{ recorded: number; checked: number }> {
  if (ctx.gateway.mode !== 'paypal') return { recorded: 0, checked: 0 };
  const due = await life.leaseCheckouts(ctx.db, leaseMs, 50);
  let recorded = 0;
  for (const c of due) {
    try {
      const order = await findOrder(ctx.db, c.orderId);
      let paypalOrder = await ctx.gateway.getOrder(c.paypalOrderId);
      const age = Date.now() - c.createdAt.getTime();
      if (
        !paypalOrder ||
        paypalOrder.status === 'VOIDED' ||
        (paypalOrder.status !== 'COMPLETED' && age > ABANDONED_MS)
      ) {
        await life.resolveCheckout(ctx.db, c.paypalOrderId);
        continue;
      }
      if (paypalOrder.status === 'APPROVED' && age > CAPTURE_GRACE_MS && !order.isPaid && !order.isCancelled)
        paypalOrder = await ctx.gateway.captureOrder(c.paypalOrderId, {
          orderId: order.id,
          totalCents: order.totalCents,
        });
      if (paypalOrder.status !== 'COMPLETED') continue;
      const outcome = await settle(ctx, order.id, paypalOrder, 'sweep');
      if (outcome !== 'already recorded') recorded++;
    } catch (err) {
      ctx.log.warn(
        { paypalOrderId: c.paypalOrderId, err: (err as Error).message },
        'reconciliation of a PayPal order failed',
      );
    }
  }
  // what the last rounds left unconfirmed is asked about again two periods later (at least a second)
  await retryRefunds(ctx, Math.max(1_000, 2 * leaseMs));
  return { recorded, checked: due.length };
}

async function retryRefunds(ctx: LifecycleContext, afterMs: number): Promise<void> {
  for (const r of await life.pendingRefunds(ctx.db, afterMs, 20)) {
    await life.touchRefund(ctx.db, r.id);
    const order = await findOrder(ctx.db, r.orderId);
    const payment = await life.paidWith(ctx.db, order.id);
    if (!payment) continue;
    await sendRefund(ctx, order, payment, r).catch((err: unknown) =>
      ctx.log.warn({ refundId: r.id, err: (err as Error).message }, 'pending refund still unconfirmed'),
    );
  }
  for (const { payment } of await life.refundsDue(ctx.db, 20)) {
    if (Date.now() - payment.createdAt.getTime() < afterMs) continue;
    const order = await findOrder(ctx.db, payment.orderId);
    await retryOrphanRefund(ctx, payment, order, false);
  }
}

/**
 * PUT /api/orders/{id}/cancel. The owner (or a guest with the order's access token) cancels an unpaid
 * order; an admin cancels any order not shipped, refunding what is left of a paid one first (a PayPal
 * refusal stops the cancel). Stock and the discount code's use come back; the shopper gets an e-mail.
 */
export async function cancelOrder(
  ctx: LifecycleContext,
  actor: { userId?: string; hasAccessToken?: boolean; isAdmin: boolean; by: string },
  orderId: string,
): Promise<Order> {
  const order = await findOrder(ctx.db, orderId);
  if (!actor.isAdmin && !actor.hasAccessToken && (!actor.userId || order.userId !== actor.userId))
    throw new ForbiddenError('Not authorized to cancel this order');
  const why = (o: OrderRow) => {
    if (o.isCancelled) return new BadRequestError(ORDER_MESSAGES.alreadyCancelled);
    if (o.isShipped) return new BadRequestError(ORDER_MESSAGES.cancelShipped);
    return new BadRequestError(ORDER_MESSAGES.cancelPaid);
  };
  if (order.isCancelled || order.isShipped || (order.isPaid && !actor.isAdmin)) throw why(order);
  let refunded = 0;
  if (order.isPaid && order.refundedCents < order.totalCents) {
    const left = order.totalCents - order.refundedCents;
    await refundOrder(
      ctx,
      { by: actor.by },
      order.id,
      { amount: fromCents(left), reason: 'Order cancelled' },
      { mail: false },
    );
    refunded = left;
  }
  const result = await ctx.db.transaction(async (tx) => {
    const row = await life.cancel(tx, order.id, !actor.isAdmin);
    if (!row) return undefined;
    const products = await repo.returnStock(tx, [row.id]);
    await life.addEvent(tx, row.id, 'cancelled', actor.by);
    const reason = actor.isAdmin ? 'the store cancelled it.' : 'you cancelled it.';
    await queueMail(
      tx,
      row.id,
      orderCancelledMail(ctx.publicUrl, {
        ...refOf(row),
        why: reason,
        refunded: refunded ? fromCents(refunded) : null,
      }),
    );
    return { row, products };
  });
  if (!result) throw why(await findOrder(ctx.db, order.id));
  ctx.mailQueued();
  if (result.products.length) await ctx.stockReturned(result.products);
  return orderView(ctx.db, result.row, 0, actor.isAdmin);
}

/**
 * POST /api/orders/{id}/refunds (admin). The amount is taken from what is left to refund in the same
 * statement that checks it (so racing refunds can never add up to more than the total), and written as a
 * PENDING refund whose id is PayPal's idempotency key; then PayPal is asked. A refusal undoes both (502,
 * nothing recorded); no answer leaves it PENDING for the sweep to ask again with the same key.
 */
export async function refundOrder(
  ctx: LifecycleContext,
  admin: { by: string },
  orderId: string,
  input: RefundInput,
  opts: { mail: boolean } = { mail: true },
): Promise<Order> {
  const order = await findOrder(ctx.db, orderId);
  if (!order.isPaid) throw new BadRequestError(ORDER_MESSAGES.notPaid);
  const amountCents = toCents(input.amount);
  if (amountCents <= 0) throw new BadRequestError(ORDER_MESSAGES.refundAmount);
  const left = order.totalCents - order.refundedCents;
  if (amountCents > left) throw new BadRequestError(ORDER_MESSAGES.refundTooMuch(formatMoney(fromCents(left))));
  const payment = await life.paidWith(ctx.db, order.id);
  if (!payment) throw new BadRequestError(ORDER_MESSAGES.notPaid);

  // the items to put back: lines of this order, by product (and variant)
  const items = await life.itemsOf(ctx.db, order.id);
  const restock: { item: string; qty: number }[] = [];
  for (const r of input.restock ?? []) {
    const line = items.find((i) => i.productId === r.product && (i.variantId ?? null) === (r.variant || null));
    if (!line) throw new BadRequestError(ORDER_MESSAGES.refundRestock);
    restock.push({ item: line.id, qty: r.qty });
  }
  const refund: RefundRow = {
    id: newId(),
    orderId: order.id,
    amountCents,
    reason: (input.reason ?? '').trim().slice(0, 500),
    status: 'PENDING',
    providerRefundId: '',
    restock,
    byUser: admin.by.slice(0, 120),
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  await ctx.db
    .transaction(async (tx) => {
      const took = await life.reserveRefund(tx, order.id, amountCents);
      if (!took) throw new RefundTooMuch();
      await life.markRestocked(tx, order.id, restock, 1);
      await life.insertRefund(tx, refund);
    })
    .catch(async (err: unknown) => {
      if (err instanceof RefundTooMuch) {
        const now = await findOrder(ctx.db, order.id);
        throw new BadRequestError(
          ORDER_MESSAGES.refundTooMuch(formatMoney(fromCents(now.totalCents - now.refundedCents))),
        );
      }
      const constraint = pgErrorOf(err)?.constraint;
      if (constraint === 'order_items_restock_within_qty') throw new BadRequestError(ORDER_MESSAGES.refundRestock);
      if (constraint === 'orders_refunds_within_total')
        throw new BadRequestError(ORDER_MESSAGES.refundTooMuch(formatMoney(fromCents(left))));
      throw err;
    });
  await sendRefund(ctx, order, payment, refund, opts.mail);
  return orderView(ctx.db, await findOrder(ctx.db, order.id), 0, true);
}

class RefundTooMuch extends Error {}

/** Asks PayPal for a PENDING refund (again, with the same key) and completes or undoes it by the answer. */
async function sendRefund(
  ctx: LifecycleContext,
  order: OrderRow,
  payment: NonNullable<Awaited<ReturnType<typeof life.paidWith>>>,
  refund: RefundRow,
  mail = true,
): Promise<void> {
  let providerId = '';
  if (payment.provider === 'test') providerId = `TEST-REFUND-${refund.id.slice(-8).toUpperCase()}`;
  else {
    try {
      const out = await ctx.gateway.refund(payment.captureId || captureIdOf(asJson(payment.raw)), {
        amountCents: refund.amountCents,
        requestId: refund.id,
        note: refund.reason,
        invoiceId: `${order.orderNumber}-${refund.id.slice(-6)}`,
      });
      if (out.status === 'FAILED' || out.status === 'CANCELLED') throw new PaypalRefusal(422, out.status, out);
      providerId = out.id;
    } catch (err) {
      // PayPal answered no (4xx), or failed on its side every time (5xx): nothing was refunded
      const answered = err instanceof UpstreamError && err.status >= 500;
      if (err instanceof PaypalRefusal || answered) {
        const issue = err instanceof PaypalRefusal ? err.issue : `PayPal error ${(err as UpstreamError).status}`;
        await ctx.db.transaction(async (tx) => {
          const dropped = await life.dropRefund(tx, refund.id);
          if (dropped) await life.markRestocked(tx, order.id, dropped.restock, -1);
        });
        ctx.log.warn({ orderId: order.id, issue }, 'PayPal refused a refund');
        throw new BadGatewayError(`${ORDER_MESSAGES.refundFailed} (${issue})`);
      }
      if (err instanceof UpstreamError) {
        ctx.log.warn(
          { orderId: order.id, refundId: refund.id, err: err.message },
          'refund unconfirmed: the sweep asks again',
        );
        throw new BadGatewayError(ORDER_MESSAGES.refundUnconfirmed);
      }
      throw err;
    }
  }
  const products = await ctx.db.transaction(async (tx) => {
    const done = await life.completeRefund(tx, refund.id, providerId);
    if (!done) return [];
    const lines = done.restock.length
      ? await life.itemsByIds(
          tx,
          done.restock.map((r) => r.item),
        )
      : [];
    const back = await repo.returnUnits(
      tx,
      lines.map((l) => ({
        productId: l.productId,
        variantId: l.variantId,
        fromVariant: l.fromVariantStock,
        qty: done.restock.filter((r) => r.item === l.id).reduce((n, r) => n + r.qty, 0),
      })),
    );
    const now = (await ordersReadRepository.find(tx, order.id)) ?? order;
    const amount = fromCents(done.amountCents);
    await life.addEvent(
      tx,
      order.id,
      'refunded',
      done.byUser || 'system',
      `${formatMoney(amount)}${done.reason ? `: ${done.reason}` : ''}`,
    );
    if (mail)
      await queueMail(
        tx,
        order.id,
        orderRefundedMail(ctx.publicUrl, {
          ...refOf(order),
          amount,
          reason: done.reason,
          refundedInAll: fromCents(now.refundedCents),
          total: fromCents(now.totalCents),
        }),
      );
    return back;
  });
  if (mail) ctx.mailQueued();
  if (products.length) await ctx.stockReturned(products);
}
