import {
  ADDRESS_MESSAGES,
  ORDER_MESSAGES,
  PAYMENT_METHOD,
  checkEmail,
  cleanText,
  firstAddressError,
  fromCents,
  LIMITS,
  normalizeAddress,
  priceOrder,
  type CreateOrderInput,
  type Order,
} from '@store/shared';
import type { Db } from '../../db/client.ts';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import { enqueueMail, orderConfirmationMail } from '../../lib/mailer/index.ts';
import { pickRate, type Rate } from '../shipping/shipping-rates.ts';
import { toOrder } from './order-view.ts';
import { ordersRepository as repo, type OrderRow } from './orders.repository.ts';
import { priceLines } from './pricing.ts';

/** Who places or reads an order: a registered user or a guest (guestToken cookie), from plugins/auth. */
export interface Buyer {
  userId: string;
  isGuest: boolean;
  isAdmin: boolean;
  username: string;
  firstName: string;
  lastName: string;
  email: string | null;
}

export interface PlaceOrderContext {
  rates: Rate[];
  publicUrl: string;
}

function buyerEmail(buyer: Buyer, input: CreateOrderInput): string {
  const given = input.email?.trim() || input.shippingAddress?.email?.trim();
  // a registered buyer's confirmed account address wins; a guest gives one (or saved one on its profile)
  const candidate = buyer.isGuest ? given || buyer.email : buyer.email || given;
  if (!candidate) throw new BadRequestError(buyer.isGuest ? ORDER_MESSAGES.guestEmail : ADDRESS_MESSAGES.emailRequired);
  const { value, error } = checkEmail(candidate);
  if (error) throw new BadRequestError(error);
  return value;
}

/**
 * Places an order (CONTRACTS.md §7): priced from the catalogue only, stock taken atomically in the same
 * transaction as the order rows (per product, in id order so concurrent orders lock rows in one order),
 * the confirmation e-mail queued in that transaction too. Any line short of stock rolls everything back;
 * a line already short when priced is refused before the transaction starts.
 */
export async function placeOrder(
  db: Db,
  buyer: Buyer,
  input: CreateOrderInput,
  ctx: PlaceOrderContext,
): Promise<Order> {
  if (input.paymentMethod && input.paymentMethod.trim().toLowerCase() !== PAYMENT_METHOD.toLowerCase())
    throw new BadRequestError(ORDER_MESSAGES.paymentMethod);
  const rate = pickRate(ctx.rates, input.shippingRateId?.trim());
  if (!input.shippingAddress) throw new BadRequestError(ORDER_MESSAGES.addressRequired);
  const sa = input.shippingAddress;
  const { address, errors } = normalizeAddress({
    ...sa,
    shipToFirstName: sa.shipToFirstName || input.shipToFirstName,
    shipToLastName: sa.shipToLastName || input.shipToLastName,
  });
  const problem = firstAddressError(errors);
  if (problem) throw new BadRequestError(problem);
  const email = buyerEmail(buyer, input);
  const name = (v: string | undefined, fallback: string) =>
    cleanText(v ?? '', LIMITS.shippingName) || cleanText(fallback, LIMITS.shippingName);

  const lines = await priceLines(db, input.orderItems);
  const price = priceOrder(lines, rate.priceCents);
  const stock = new Map<string, { qty: number; name: string; inStock: number }>();
  for (const l of lines)
    stock.set(l.productId, { qty: (stock.get(l.productId)?.qty ?? 0) + l.qty, name: l.name, inStock: l.inStock });
  // per product, in id order: concurrent orders lock product rows in one order (no deadlock)
  const wanted = [...stock.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const notEnough = (name: string) => new ConflictError(`Not enough stock for ${name}`);
  // Cheap refusal: the stock read (without a lock) while pricing is already short, so this order would
  // fail now; refuse before queueing on the product's row lock (a sold-out burst answers 409 at once).
  // A restock committed after that read is as if the order had come a moment earlier. Enough stock
  // here proves nothing: the conditional UPDATE below stays the judge.
  for (const [, want] of wanted) if (want.inStock < want.qty) throw notEnough(want.name);

  const { countryCode: _code, ...shippingAddress } = address;
  const order = await db.transaction(async (tx) => {
    for (const [productId, want] of wanted) {
      if (!(await repo.takeStock(tx, productId, want.qty))) throw notEnough(want.name);
    }
    const row = await repo.insertOrder(
      tx,
      {
        userId: buyer.userId,
        username: buyer.username,
        // a guest's own names are placeholders: the ship-to names say more
        firstName: name(
          input.firstName,
          buyer.isGuest ? address.shipToFirstName : buyer.firstName || address.shipToFirstName,
        ),
        lastName: name(
          input.lastName,
          buyer.isGuest ? address.shipToLastName : buyer.lastName || address.shipToLastName,
        ),
        email,
        isGuest: buyer.isGuest,
        shippingAddress,
        shippingRateId: rate.id,
        paymentMethod: PAYMENT_METHOD,
        itemsCents: price.itemsCents,
        taxCents: price.taxCents,
        shippingCents: price.shippingCents,
        totalCents: price.totalCents,
      },
      lines.map((l) => ({
        productId: l.productId,
        variantId: l.variantId,
        variantName: l.variantName,
        name: l.name,
        image: l.image,
        priceCents: l.unitPriceCents,
        qty: l.qty,
      })),
    );
    await enqueueMail(
      tx,
      orderConfirmationMail(ctx.publicUrl, {
        to: row.email,
        name: row.firstName,
        orderId: row.id,
        items: lines.map((l) => ({
          name: l.variantName ? `${l.name} (${l.variantName})` : l.name,
          qty: l.qty,
          price: fromCents(l.unitPriceCents),
        })),
        totalPrice: fromCents(row.totalCents),
      }),
    );
    return row;
  });
  return orderView(db, order);
}

export async function orderView(db: Db, order: OrderRow): Promise<Order> {
  const { items, tracking, events } = await repo.parts(db, order.id);
  return toOrder(order, items, tracking, events);
}

export async function findOrder(db: Db, id: string): Promise<OrderRow> {
  const order = /^[0-9a-f]{24}$/.test(id) ? await repo.find(db, id) : undefined;
  if (!order) throw new NotFoundError('Order not found');
  return order;
}

/** Owner (the account or guest that placed it) or admin; anyone else gets 403 and nothing of the order. */
export async function getOrderFor(db: Db, viewer: Pick<Buyer, 'userId' | 'isAdmin'>, id: string): Promise<Order> {
  const order = await findOrder(db, id);
  if (!viewer.isAdmin && order.userId !== viewer.userId) throw new ForbiddenError('Not authorized to view this order');
  return orderView(db, order);
}
