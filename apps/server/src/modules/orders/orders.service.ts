import {
  ADDRESS_MESSAGES,
  ERROR_CODES,
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
  type NormalizedAddress,
  type Order,
} from '@store/shared';
import type { Db } from '#server/db/client.ts';
import { BadRequestError, ConflictError } from '#server/lib/errors.ts';
import { newId } from '#server/lib/ids.ts';
import { orderConfirmationMail, outboxRow } from '#server/lib/mailer/index.ts';
import { pgErrorOf } from '#server/lib/sql.ts';
import { pickRate, type Rate } from '../shipping/shipping-rates.ts';
import { toOrder } from './order-view.ts';
import { SoldOut, type Release, type StockGate, type StockNeed, type StockOutcome } from './stock-gate.ts';
import { ordersRepository as repo } from './orders.repository.ts';
import { orderLines, priceLines, type ProductForOrder } from './pricing.ts';

type OrderLine = ReturnType<typeof orderLines>[number];

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
  /** The shipping rates on offer, read once the order is admitted (a sold-out refusal reads nothing). */
  rates: () => Promise<Rate[]>;
  publicUrl: string;
  /** Reads products for pricing (concurrent orders share these reads: orders.plugin.ts). */
  products: (ids: string[]) => Promise<ProductForOrder[]>;
  /** This process's admission gate (stock-gate.ts): refuses orders the stock read cannot serve. */
  gate: StockGate;
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

/** Units wanted per product. */
function unitsPerProduct(lines: OrderLine[]): StockNeed[] {
  const units = new Map<string, number>();
  for (const l of lines) units.set(l.productId, (units.get(l.productId) ?? 0) + l.qty);
  return [...units].map(([productId, qty]) => ({ productId, qty }));
}

/**
 * Places an order: priced from the catalogue only, stock taken atomically in the same transaction as
 * the order rows (per product, in id order so concurrent orders lock rows in one order), the
 * confirmation e-mail queued in that transaction too. Any line short of stock rolls everything back.
 * Before any database work the order passes this process's stock gate (stock-gate.ts): an order for
 * units known to be gone is refused at once, and while the last units are being taken by orders in
 * flight here, the others wait for their outcome instead of queueing on the product's row lock.
 */
export async function placeOrder(
  db: Db,
  buyer: Buyer,
  input: CreateOrderInput,
  ctx: PlaceOrderContext,
): Promise<Order> {
  if (input.paymentMethod && input.paymentMethod.trim().toLowerCase() !== PAYMENT_METHOD.toLowerCase())
    throw new BadRequestError(ORDER_MESSAGES.paymentMethod);
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

  const lines = orderLines(input.orderItems);
  const needs = unitsPerProduct(lines);
  let release: Release | undefined;
  const outcome: StockOutcome = new Map();
  try {
    // the products as they are now (after this order arrived): pricing and the stock gate read them
    let found: ProductForOrder[] = [];
    const read = async () => {
      found = await ctx.products(needs.map((n) => n.productId));
      return new Map(found.map((p) => [p.id, { stock: p.countInStock, name: p.name }]));
    };
    release = await ctx.gate.admit(needs, read);
    return await pricedAndPlaced(db, buyer, input, ctx, { lines, needs, found, address, email, outcome });
  } catch (err) {
    if (err instanceof SoldOut) throw new ConflictError(err.message, ERROR_CODES.OUT_OF_STOCK);
    throw err;
  } finally {
    release?.(outcome);
  }
}

async function pricedAndPlaced(
  db: Db,
  buyer: Buyer,
  input: CreateOrderInput,
  ctx: PlaceOrderContext,
  {
    lines: wantedLines,
    needs,
    found,
    address,
    email,
    outcome,
  }: {
    lines: OrderLine[];
    needs: StockNeed[];
    found: ProductForOrder[];
    address: NormalizedAddress;
    email: string;
    outcome: StockOutcome;
  },
): Promise<Order> {
  const name = (v: string | undefined, fallback: string) =>
    cleanText(v ?? '', LIMITS.shippingName) || cleanText(fallback, LIMITS.shippingName);
  const [lines, rates] = await Promise.all([priceLines(db, wantedLines, found), ctx.rates()]);
  const rate = pickRate(rates, input.shippingRateId?.trim());
  const price = priceOrder(lines, rate.priceCents);
  // per product, in id order: concurrent orders lock product rows in one order (no deadlock). An order
  // already short when read was refused by the stock gate; the statement below stays the judge.
  const nameOf = new Map(found.map((p) => [p.id, p.name]));
  const wanted = [...needs]
    .sort((a, b) => (a.productId < b.productId ? -1 : 1))
    .map((n) => [n.productId, { qty: n.qty, name: nameOf.get(n.productId) ?? n.productId }] as const);
  const notEnough = (name: string) => new ConflictError(`Not enough stock for ${name}`, ERROR_CODES.OUT_OF_STOCK);

  const { countryCode: _code, ...shippingAddress } = address;
  const orderId = newId();
  const order = {
    id: orderId,
    userId: buyer.userId,
    username: buyer.username,
    // a guest's own names are placeholders: the ship-to names say more
    firstName: name(
      input.firstName,
      buyer.isGuest ? address.shipToFirstName : buyer.firstName || address.shipToFirstName,
    ),
    lastName: name(input.lastName, buyer.isGuest ? address.shipToLastName : buyer.lastName || address.shipToLastName),
    email,
    isGuest: buyer.isGuest,
    shippingAddress,
    shippingRateId: rate.id,
    paymentMethod: PAYMENT_METHOD,
    itemsCents: price.itemsCents,
    taxCents: price.taxCents,
    shippingCents: price.shippingCents,
    totalCents: price.totalCents,
  };
  const mail = orderConfirmationMail(ctx.publicUrl, {
    to: email,
    name: order.firstName,
    orderId,
    items: lines.map((l) => ({
      name: l.variantName ? `${l.name} (${l.variantName})` : l.name,
      qty: l.qty,
      price: fromCents(l.unitPriceCents),
    })),
    totalPrice: fromCents(price.totalCents),
  });
  let placed: Awaited<ReturnType<typeof repo.placeWithStock>>;
  try {
    placed = await repo.placeWithStock(
      db,
      order,
      lines.map((l) => ({
        orderId,
        productId: l.productId,
        variantId: l.variantId,
        variantName: l.variantName,
        name: l.name,
        image: l.image,
        priceCents: l.unitPriceCents,
        qty: l.qty,
      })),
      outboxRow(mail),
      wanted.map(([productId, want]) => ({ productId, qty: want.qty })),
    );
  } catch (err) {
    const pg = pgErrorOf(err);
    // a product short of stock (the check on stock >= 0) or deleted since it was priced (foreign key)
    if (pg?.constraint === 'products_stock_nonneg' || pg?.constraint?.startsWith('order_items_product_id')) {
      const now = new Map(
        (
          await repo.stockOf(
            db,
            wanted.map(([id]) => id),
          )
        ).map((r) => [r.id, r.stock]),
      );
      const [productId, want] = wanted.find(([id, w]) => (now.get(id) ?? 0) < w.qty) ?? wanted[0]!;
      outcome.set(productId, { stock: Math.min(now.get(productId) ?? 0, want.qty - 1), name: want.name });
      throw notEnough(want.name);
    }
    throw err;
  }
  // what this order saw once committed: the stock it left
  for (const [id, want] of wanted) outcome.set(id, { stock: placed.left.get(id) ?? 0, name: want.name });
  const { row, items } = placed;
  // a new order has no tracking yet: its view needs no further read
  return toOrder(row, items, [], []);
}
