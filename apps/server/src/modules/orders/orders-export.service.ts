import type { Readable } from 'node:stream';
import { fromCents, type OrderExportQuery } from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { csvStream } from '#server/lib/csv.ts';
import { orderFilterOf } from './orders-read.service.ts';
import { ordersReadRepository as repo, type OrderItemRow, type OrderRow } from './orders-read.repository.ts';

/** The admin order list's filters, without its paging, and optionally only the selected orders. */
export type { OrderExportQuery };

export const ORDER_CSV_COLUMNS = [
  'orderNumber',
  '_id',
  'createdAt',
  'email',
  'firstName',
  'lastName',
  'isGuest',
  'items',
  'itemsPrice',
  'discountPrice',
  'couponCode',
  'taxPrice',
  'shippingPrice',
  'totalPrice',
  'isPaid',
  'paidAt',
  'isShipped',
  'shippedAt',
  'isDelivered',
  'deliveredAt',
  'isCancelled',
  'cancelledAt',
  'refundedPrice',
  'shippingAddress',
] as const;

/** Orders read per page of the export. */
const PAGE = 500;

const money = (cents: number) => String(fromCents(cents));
const iso = (d: Date | null) => (d ? d.toISOString() : '');

/** The items on one line: `2 x Mug (Blue); 1 x Lamp`. */
export function itemsLine(items: Pick<OrderItemRow, 'qty' | 'name' | 'variantName'>[]): string {
  return items.map((i) => `${i.qty} x ${i.name}${i.variantName ? ` (${i.variantName})` : ''}`).join('; ');
}

/** The shipping address on one line: `Ada Lovelace, 1 Main St, Springfield, IL 62701, US`. */
export function addressLine(a: OrderRow['shippingAddress']): string {
  const name = `${a.shipToFirstName} ${a.shipToLastName}`.trim();
  const place = `${a.state} ${a.postalCode}`.trim();
  return [name, a.address1, a.address2 ?? '', a.city, place, a.country].filter((s) => s.trim() !== '').join(', ');
}

function recordOf(o: OrderRow, items: OrderItemRow[]): Record<(typeof ORDER_CSV_COLUMNS)[number], string> {
  return {
    orderNumber: String(o.orderNumber),
    _id: o.id,
    createdAt: o.createdAt.toISOString(),
    email: o.email,
    firstName: o.firstName,
    lastName: o.lastName,
    isGuest: String(o.isGuest),
    items: itemsLine(items),
    itemsPrice: money(o.itemsCents),
    discountPrice: money(o.discountCents),
    couponCode: o.couponCode ?? '',
    taxPrice: money(o.taxCents),
    shippingPrice: money(o.shippingCents),
    totalPrice: money(o.totalCents),
    isPaid: String(o.isPaid),
    paidAt: iso(o.paidAt),
    isShipped: String(o.isShipped),
    shippedAt: iso(o.shippedAt),
    isDelivered: String(o.isDelivered),
    deliveredAt: iso(o.deliveredAt),
    isCancelled: String(o.isCancelled),
    cancelledAt: iso(o.cancelledAt),
    refundedPrice: money(o.refundedCents),
    shippingAddress: addressLine(o.shippingAddress),
  };
}

/**
 * GET /api/orders/export: the orders the admin list's filters select, newest first, one CSV row each,
 * read in keyset pages of 500 (each page's items in one query) and written as the client reads. A bad
 * filter is a 400 before anything is sent.
 */
export function exportOrders(db: Db, q: OrderExportQuery): Readable {
  const filter = orderFilterOf(q);
  async function* records() {
    for (let after: { at: string; id: string } | null = null; ;) {
      const page = await repo.pageAfter(db, filter, after, PAGE);
      const items = new Map<string, OrderItemRow[]>();
      for (const i of await repo.itemsOf(
        db,
        page.map((r) => r.order.id),
      ))
        items.set(i.orderId, [...(items.get(i.orderId) ?? []), i]);
      for (const { order } of page) {
        const record = recordOf(order, items.get(order.id) ?? []);
        yield ORDER_CSV_COLUMNS.map((c) => record[c]);
      }
      if (page.length < PAGE) return;
      const last = page[page.length - 1]!;
      after = { at: last.at, id: last.order.id };
    }
  }
  return csvStream(ORDER_CSV_COLUMNS, records());
}
