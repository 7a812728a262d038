import {
  ADDRESS_MESSAGES,
  COUPON_MESSAGES,
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
import { ORDER_NUMBER_SLOT, orderConfirmationMail, outboxRow } from '#server/lib/mailer/index.ts';
import { pgErrorOf } from '#server/lib/sql.ts';
import { pickRate, type Rate } from '../shipping/shipping-rates.ts';
import { toOrder } from './order-view.ts';
import { couponCodeOf, couponForOrder } from '../coupons/coupons.service.ts';
import {
  SoldOut,
  type Release,
  type StockGate,
  type StockInfo,
  type StockNeed,
  type StockOutcome,
} from './stock-gate.ts';
import { type Placed, type Placing, ordersRepository as repo } from './orders.repository.ts';
import { orderLines, poolOf, priceLines, type ProductForOrder } from './pricing.ts';

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
  /** How long an unpaid order holds its stock (ORDER_HOLD_MINUTES; 0: for ever): its payBy and the mail say it. */
  holdMinutes: number;
  /** Reads products for pricing (concurrent orders share these reads: orders.plugin.ts). */
  products: (ids: string[]) => Promise<ProductForOrder[]>;
  /** This process's admission gate (stock-gate.ts): refuses orders the stock read cannot serve. */
  gate: StockGate;
  /**
   * Places an order without a discount code: concurrent ones share a statement and its commit, each
   * still placed or refused on its own (orders.plugin.ts).
   */
  place: (placing: Placing) => Promise<Placed>;
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

/** Units wanted per stock pool, as the products were read (the placing statement decides again). */
function unitsPerPool(lines: OrderLine[], found: ProductForOrder[]): Map<string, PoolNeed> {
  const byId = new Map(found.map((p) => [p.id, p]));
  const pools = new Map<string, PoolNeed>();
  for (const l of lines) {
    const product = byId.get(l.productId);
    const { pool, stock, name } = poolOf(l, product);
    const seen = pools.get(pool);
    pools.set(pool, { pool, qty: (seen?.qty ?? 0) + l.qty, stock, name, known: product !== undefined });
  }
  return pools;
}

/** A pool's units wanted, with its stock and name as read (`known`: its product exists). */
type PoolNeed = StockNeed & StockInfo & { known: boolean };

/** The stock gate's pool for a discount code's uses (stock-gate.ts): `code:<CODE>`. */
const CODE_POOL = 'code:';
const codePool = (code: string) => `${CODE_POOL}${code}`;

/** Tells the stock gate (through the order's outcome) that the code has no use left. */
function usedUp(outcome: StockOutcome, code: string): void {
  outcome.set(codePool(code), { stock: 0, name: code });
}

/**
 * Places an order: priced from the catalogue only (with its discount code, when it applies), the
 * stock of each line taken atomically from the pool it draws on (a variant's own stock, else its
 * product's) in the same transaction as the order rows, the code's use counted there too, and the
 * confirmation e-mail queued in it. A pool short of stock, or a code used up meanwhile, rolls
 * everything back. Before any database work the order passes this process's stock gate
 * (stock-gate.ts): an order for units known to be gone is refused at once, and while the last units
 * are being taken by orders in flight here, the others wait for their outcome instead of queueing on
 * the row lock.
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
  const productIds = [...new Set(lines.map((l) => l.productId))];
  let release: Release | undefined;
  const outcome: StockOutcome = new Map();
  try {
    // the products as they are now (after this order arrived): pricing and the stock gate read them
    let found: ProductForOrder[] = [];
    let needs = new Map<string, PoolNeed>();
    const read = async () => {
      found = await ctx.products(productIds);
      needs = unitsPerPool(lines, found);
      // an unknown product is not for the gate to judge: pricing answers 400 for it
      return new Map(
        [...needs].filter(([, n]) => n.known).map(([pool, n]) => [pool, { stock: n.stock, name: n.name }]),
      );
    };
    // the pools are known once the products are read: the gate asks for them after its read; a
    // code's uses are a pool nothing reads before admission (its orders report it used up)
    const code = couponCodeOf(input.couponCode);
    const usesOf = code ? [{ pool: codePool(code), qty: 1 }] : [];
    release = await ctx.gate.admit(() => [...needs.values(), ...usesOf], read);
    return await pricedAndPlaced(db, buyer, input, ctx, { lines, needs, found, address, email, code, outcome });
  } catch (err) {
    if (err instanceof SoldOut)
      throw err.pool.startsWith(CODE_POOL)
        ? new ConflictError(COUPON_MESSAGES.usedUp, ERROR_CODES.COUPON_USED_UP)
        : new ConflictError(err.message, ERROR_CODES.OUT_OF_STOCK);
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
    code,
    outcome,
  }: {
    lines: OrderLine[];
    needs: Map<string, PoolNeed>;
    found: ProductForOrder[];
    address: NormalizedAddress;
    email: string;
    code: string | null;
    outcome: StockOutcome;
  },
): Promise<Order> {
  const name = (v: string | undefined, fallback: string) =>
    cleanText(v ?? '', LIMITS.shippingName) || cleanText(fallback, LIMITS.shippingName);
  const lines = priceLines(wantedLines, found);
  const rate = pickRate(await ctx.rates(), input.shippingRateId?.trim());
  const itemsCents = priceOrder(lines, 0).itemsCents;
  const coupon = code
    ? await couponForOrder(db, code, { itemsCents, email }).catch((err: unknown) => {
        if (err instanceof Error && err.message === COUPON_MESSAGES.usedUp) usedUp(outcome, code);
        throw err;
      })
    : null;
  const price = priceOrder(lines, rate.priceCents, coupon?.terms ?? null);

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
    discountCents: price.discountCents,
    taxCents: price.taxCents,
    shippingCents: price.shippingCents,
    totalCents: price.totalCents,
    couponId: coupon?.id ?? null,
    couponCode: coupon?.code ?? null,
  };
  const mail = orderConfirmationMail(ctx.publicUrl, {
    to: email,
    name: order.firstName,
    orderId,
    orderNumber: ORDER_NUMBER_SLOT,
    items: lines.map((l) => ({
      name: l.variantName ? `${l.name} (${l.variantName})` : l.name,
      qty: l.qty,
      price: fromCents(l.unitPriceCents),
    })),
    totalPrice: fromCents(price.totalCents),
    discount: coupon
      ? { code: coupon.code, amount: fromCents(price.discountCents), freeShipping: coupon.type === 'free_shipping' }
      : null,
    payWithinMinutes: ctx.holdMinutes,
  });
  // per product, in id order: the items' order is the order the statement reads them in
  const lineRows = [...lines]
    .sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0))
    .map((l) => ({
      id: newId(),
      orderId,
      productId: l.productId,
      variantId: l.variantId,
      variantName: l.variantName,
      name: l.name,
      image: l.image,
      priceCents: l.unitPriceCents,
      qty: l.qty,
    }));
  const placedBy = buyer.isGuest ? `guest ${email}` : buyer.username;
  let placed: Placed;
  try {
    placed = coupon
      ? await repo.placeWithStock(
          db,
          order,
          lineRows,
          outboxRow(mail),
          { id: coupon.id, email: email.toLowerCase() },
          placedBy,
        )
      : await ctx.place({ order, items: lineRows, mail: outboxRow(mail), placedBy });
  } catch (err) {
    throw await placingRefused(db, err, { needs, outcome, couponCode: coupon?.code });
  }
  // what this order saw once committed: the stock it left in each pool
  for (const [pool, n] of needs) outcome.set(pool, { stock: placed.left.get(pool) ?? 0, name: n.name });
  // a new order has no tracking yet: its view needs no further read
  return toOrder(placed.row, placed.items, [], [], ctx.holdMinutes);
}

/**
 * Why the placing statement refused the order, as the answer to send: a pool short of stock (or a
 * product deleted since it was priced) is a 409 naming the product and variant, and tells the stock
 * gate what is left; a code whose last use went to another order is a 409; a code deleted meanwhile is
 * a 400. Anything else is not the buyer's doing and goes on as it is.
 */
async function placingRefused(
  db: Db,
  err: unknown,
  ctx: { needs: Map<string, PoolNeed>; outcome: StockOutcome; couponCode: string | undefined },
): Promise<unknown> {
  const constraint = pgErrorOf(err)?.constraint;
  if (constraint === 'coupons_usage_within_limit') {
    if (ctx.couponCode) usedUp(ctx.outcome, ctx.couponCode);
    return new ConflictError(COUPON_MESSAGES.usedUp, ERROR_CODES.COUPON_USED_UP);
  }
  if (constraint === 'coupon_uses_within_limit')
    return new ConflictError(COUPON_MESSAGES.perCustomerUsed, ERROR_CODES.COUPON_USED_UP);
  if (constraint?.startsWith('orders_coupon_id'))
    return new BadRequestError(COUPON_MESSAGES.unknown, ERROR_CODES.COUPON_NOT_APPLICABLE);
  const short =
    constraint === 'products_stock_nonneg' ||
    constraint === 'product_variants_stock_nonneg' ||
    constraint?.startsWith('order_items_product_id');
  if (!short) return err;
  const pools = [...ctx.needs.values()];
  const idsOf = (prefix: string) => pools.filter((n) => n.pool.startsWith(prefix)).map((n) => n.pool.slice(2));
  const now = await repo.stockOf(db, idsOf('p:'), idsOf('v:'));
  const left = (pool: string) =>
    (pool.startsWith('v:') ? now.variants.get(pool.slice(2)) : now.products.get(pool.slice(2))) ?? 0;
  const need = pools.find((n) => left(n.pool) < n.qty) ?? pools[0]!;
  ctx.outcome.set(need.pool, { stock: Math.min(left(need.pool), need.qty - 1), name: need.name });
  return new ConflictError(`Not enough stock for ${need.name}`, ERROR_CODES.OUT_OF_STOCK);
}
