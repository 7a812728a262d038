import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { newId } from '#server/lib/ids.ts';
import { ORDER_NUMBER_SLOT } from '#server/lib/mailer/index.ts';
import { PreparedShapes } from '#server/lib/prepared-shapes.ts';
import { anyOf, rowFromJson } from '#server/lib/sql.ts';
import {
  couponUses,
  coupons,
  mailOutbox,
  orderAccessTokens,
  orderEvents,
  orderItems,
  orders,
  payments,
  productVariants,
  products,
  trackingNumbers,
} from '#server/db/schema/index.ts';
import type { OrderItemRow, OrderRow } from './orders-read.repository.ts';

type Conn = Db | Tx;

/** An order without a discount code, ready to place: its row, its lines, its confirmation mail, who placed it. */
export interface Placing {
  order: Pick<
    typeof orders.$inferInsert,
    | 'username'
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'isGuest'
    | 'shippingAddress'
    | 'shippingRateId'
    | 'paymentMethod'
    | 'itemsCents'
    | 'discountCents'
    | 'taxCents'
    | 'shippingCents'
    | 'totalCents'
  > & { id: string; userId: string | null };
  items: OrderLineInsert[];
  mail: typeof mailOutbox.$inferInsert;
  placedBy: string;
}

/** An order line to insert (which stock it draws on is the placing statement's to say). */
type OrderLineInsert = Omit<typeof orderItems.$inferInsert, 'fromVariantStock'> & { id: string };

/** An order line as the placing statements read it from their JSON parameter (`json_to_recordset`). */
const lineRecord = (i: OrderLineInsert) => ({
  id: i.id,
  order_id: i.orderId,
  product_id: i.productId,
  variant_id: i.variantId ?? null,
  variant_name: i.variantName ?? '',
  name: i.name,
  image: i.image ?? '',
  price_cents: i.priceCents,
  qty: Math.trunc(i.qty),
});

/** A placed order: its row and items, and what each pool it drew on had left (`p:` product, `v:` variant). */
export interface Placed {
  row: OrderRow;
  items: OrderItemRow[];
  left: Map<string, number>;
}

/** Reads of an order's products and variants by id: each one statement, built once (lib/prepared-shapes.ts). */
const byIds = new PreparedShapes();

/** What placing, paying, shipping and expiring orders write, and the reads they decide on. */

export const ordersRepository = {
  async productsFor(db: Conn, ids: string[]) {
    if (ids.length === 0) return [];
    return byIds.run(db, 'products', (bind) =>
      db
        .select({
          id: products.id,
          name: products.name,
          image: products.image,
          priceCents: products.priceCents,
          countInStock: products.countInStock,
        })
        .from(products)
        // a draft is not for sale: ordering one reads as ordering a product that does not exist
        .where(and(anyOf(products.id, ids, bind), eq(products.status, 'active'))),
    );
  },

  async variantsFor(db: Conn, productIds: string[]) {
    if (productIds.length === 0) return [];
    return byIds.run(db, 'variants', (bind) =>
      db
        .select({
          id: productVariants.id,
          productId: productVariants.productId,
          name: productVariants.name,
          src: productVariants.src,
          priceCents: productVariants.priceCents,
          countInStock: productVariants.countInStock,
        })
        .from(productVariants)
        .where(anyOf(productVariants.productId, productIds, bind)),
    );
  },

  /**
   * Places an order in one statement, which PostgreSQL runs as one transaction: locks the products of
   * the order (in id order), then the variants named (in id order); takes each line's units from the
   * pool it draws on (a variant with its own stock, else its product), counts the discount code's use
   * (in all and for this e-mail address), and inserts the order, its items (each noting its pool) and
   * its confirmation mail. One statement, so a row is locked only while the database runs it, never
   * across a round trip to this process (a busy event loop would hold every other buyer).
   * Stock and uses are taken unconditionally: the checks `products_stock_nonneg`,
   * `product_variants_stock_nonneg`, `coupons_usage_within_limit` and `coupon_uses_within_limit` fail
   * the whole statement when a pool is short or a code used up, which the caller reads with
   * `pgErrorOf` (nothing is written then).
   */
  async placeWithStock(
    db: Db,
    order: typeof orders.$inferInsert & { id: string },
    items: OrderLineInsert[],
    mail: typeof mailOutbox.$inferInsert,
    coupon: { id: string; email: string } | null,
    placedBy: string,
  ): Promise<{ row: OrderRow; items: OrderItemRow[]; left: Map<string, number> }> {
    // array literals (hex ids and integers only): both drivers pass a text parameter the same way. Each
    // array and the items go in as `(select $n)`, which the planner cannot look into: its custom plans then
    // assume what its generic plan assumes (ten elements), so PostgreSQL keeps the generic plan of this
    // prepared statement and plans it once per connection (0.03 ms) instead of once per order (0.5-0.9 ms);
    // a custom plan that saw one order line always looked cheaper on paper
    const pids = `{${items.map((i) => i.productId).join(',')}}`;
    const vids = `{${items.map((i) => i.variantId ?? 'NULL').join(',')}}`;
    const qtys = `{${items.map((i) => Math.trunc(i.qty)).join(',')}}`;
    if (!/^\{[0-9a-f]{24}(,[0-9a-f]{24})*\}$/.test(pids)) throw new Error('placeWithStock: bad product ids');
    if (!/^\{([0-9a-f]{24}|NULL)(,([0-9a-f]{24}|NULL))*\}$/.test(vids))
      throw new Error('placeWithStock: bad variant ids');
    const itemsJson = JSON.stringify(items.map(lineRecord));
    const after = sql`(select count(*) from taken) + (select count(*) from vtaken) >= 0`;
    const counted = coupon
      ? sql`, used as (
          update ${coupons} set times_used = ${coupons.timesUsed} + 1
          where ${coupons.id} = ${coupon.id} and ${after}
          returning ${coupons.id} as id, ${coupons.perCustomerLimit} as per_customer
        ), used_by as (
          insert into ${couponUses} (coupon_id, email, uses, max_uses)
          select u.id, ${coupon.email}, 1, u.per_customer from used u
          on conflict (coupon_id, email) do update
            set uses = ${couponUses.uses} + 1, max_uses = excluded.max_uses
          returning uses
        )`
      : sql``;
    const result = await db.execute<{
      taken: { id: string; stock: number }[] | null;
      vtaken: { id: string; stock: number }[] | null;
      placed: object;
      items: object[];
    }>(sql`
      with lines as (
        select * from unnest((select ${pids}::char(24)[]), (select ${vids}::char(24)[]), (select ${qtys}::int[])) as l(product_id, variant_id, qty)
      ), locked as (
        select ${products.id} as id from ${products}
        where ${products.id} = any((select ${pids}::char(24)[])::char(24)[]) order by ${products.id} for update
      ), vlocked as (
        -- locked after the products (every writer of a variant holds its product first); FOR UPDATE
        -- reads the latest committed row, so the pool below is the one the variant has now
        select v.id, v.product_id, v.count_in_stock from ${productVariants} v
        where v.id = any((select ${vids}::char(24)[])::char(24)[]) and (select count(*) from locked) >= 0
        order by v.id for update
      ), pool as (
        select l.product_id, l.variant_id, l.qty, (vl.count_in_stock is not null) as own
        from lines l left join vlocked vl on vl.id = l.variant_id and vl.product_id = l.product_id
      ), taken as (
        update ${products} p set count_in_stock = p.count_in_stock - s.qty
        from (select product_id, sum(qty)::int as qty from pool where not own group by product_id) s
        where p.id = s.product_id
        returning p.id as id, p.count_in_stock as stock
      ), vtaken as (
        update ${productVariants} v set count_in_stock = v.count_in_stock - s.qty
        from (select variant_id, sum(qty)::int as qty from pool where own group by variant_id) s
        where v.id = s.variant_id
        returning v.id as id, v.count_in_stock as stock
      )${counted},
      placed as (${db.insert(orders).values(order).returning().getSQL()}),
      items as (
        insert into ${orderItems}
          (id, order_id, product_id, variant_id, variant_name, name, image, price_cents, qty, from_variant_stock)
        select i.id, i.order_id, i.product_id, i.variant_id, i.variant_name, i.name, i.image, i.price_cents, i.qty,
          coalesce((select p.own from pool p where p.product_id = i.product_id and p.variant_id = i.variant_id), false)
        from json_to_recordset((select ${itemsJson}::json)) as i(
          id char(24), order_id char(24), product_id char(24), variant_id char(24), variant_name varchar,
          name varchar, image text, price_cents int, qty int)
        returning *
      ),
      mail as (
        -- the order's number is known only once it is inserted: the mail's slot for it is filled here
        insert into ${mailOutbox} (id, "to", subject, html, text, next_attempt_at)
        select ${newId()}, ${mail.to}, replace(${mail.subject}, ${ORDER_NUMBER_SLOT}, p.order_number::text),
          replace(${mail.html}, ${ORDER_NUMBER_SLOT}, p.order_number::text),
          replace(${mail.text}, ${ORDER_NUMBER_SLOT}, p.order_number::text), ${(mail.nextAttemptAt ?? new Date()).toISOString()}::timestamptz
        from placed p
        returning id, subject
      ),
      history as (
        insert into ${orderEvents} (id, order_id, event, by, note)
        select ${newId()}, p.id, 'placed', ${placedBy.slice(0, 120)}, '' from placed p
        union all
        select ${newId()}, p.id, 'email', 'system', left(m.subject, 500) from placed p, mail m
        returning id
      )
      select (select json_agg(t) from taken t) as taken,
             (select json_agg(t) from vtaken t) as vtaken,
             (select row_to_json(p) from placed p) as placed,
             (select json_agg(i) from items i) as items,
             (select count(*) from mail) as mails, (select count(*) from history) as events${coupon ? sql`, (select count(*) from used_by) as uses` : sql``}`);
    const [out] = result.rows;
    return {
      row: rowFromJson(orders, out!.placed as Record<string, unknown>),
      items: (out!.items as Record<string, unknown>[])
        .map((i) => rowFromJson(orderItems, i))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      // what each pool has left: `p:` a product's own stock, `v:` a variant's
      left: new Map([
        ...(out!.taken ?? []).map((t) => [`p:${t.id}`, t.stock] as const),
        ...(out!.vtaken ?? []).map((t) => [`v:${t.id}`, t.stock] as const),
      ]),
    };
  },

  /**
   * Places several orders without a discount code in one statement, which PostgreSQL runs as one
   * transaction and commits once: the same steps as `placeWithStock` for all of them together. The
   * products of every order are locked in id order, then the variants named (in id order), so a batch,
   * a single order and a cancel never deadlock; each pool gives the units all the batch's lines take
   * from it. All or nothing: one pool short for the batch fails the whole statement (checked by the
   * same constraints), and the caller then places each order alone. The statement's text never
   * changes (the orders and their lines go in as two JSON parameters): PostgreSQL plans it once per connection.
   * Answers each order's row and items, in the order given, with what each pool had left once the
   * batch took its units.
   */
  async placeMany(db: Db, placings: Placing[]): Promise<Placed[]> {
    const now = new Date().toISOString();
    const ordersJson = JSON.stringify(
      placings.map(({ order: o, mail, placedBy }, ord) => ({
        ord,
        id: o.id,
        user_id: o.userId,
        username: o.username,
        first_name: o.firstName,
        last_name: o.lastName,
        email: o.email,
        is_guest: o.isGuest,
        shipping_address: o.shippingAddress,
        shipping_rate_id: o.shippingRateId,
        payment_method: o.paymentMethod,
        items_cents: o.itemsCents,
        discount_cents: o.discountCents,
        tax_cents: o.taxCents,
        shipping_cents: o.shippingCents,
        total_cents: o.totalCents,
        placed_by: placedBy.slice(0, 120),
        placed_event: newId(),
        mail_event: newId(),
        mail_id: newId(),
        mail_to: mail.to,
        mail_subject: mail.subject,
        mail_html: mail.html,
        mail_text: mail.text,
        mail_due: mail.nextAttemptAt ? mail.nextAttemptAt.toISOString() : now,
      })),
    );
    const linesJson = JSON.stringify(placings.flatMap(({ items }) => items.map(lineRecord)));
    const result = await db.execute<{
      taken: { id: string; stock: number }[] | null;
      vtaken: { id: string; stock: number }[] | null;
      placed: Record<string, unknown>[];
      items: Record<string, unknown>[];
    }>(sql`
      with o as (
        select * from json_to_recordset((select ${ordersJson}::json)) as o(
          ord int, id char(24), user_id char(24), username varchar, first_name varchar, last_name varchar, email varchar,
          is_guest boolean, shipping_address jsonb, shipping_rate_id varchar, payment_method varchar,
          items_cents int, discount_cents int, tax_cents int, shipping_cents int, total_cents int,
          placed_by varchar, placed_event char(24), mail_event char(24), mail_id char(24), mail_to varchar,
          mail_subject varchar, mail_html text, mail_text text, mail_due timestamptz
        )
      ), lines as (
        select * from json_to_recordset((select ${linesJson}::json)) as l(
          id char(24), order_id char(24), product_id char(24), variant_id char(24), variant_name varchar,
          name varchar, image text, price_cents int, qty int)
      ), locked as (
        select p.id from products p
        where p.id in (select product_id from lines) order by p.id for update
      ), vlocked as (
        -- locked after the products (every writer of a variant holds its product first); FOR UPDATE
        -- reads the latest committed row, so the pool below is the one the variant has now
        select v.id, v.product_id, v.count_in_stock from product_variants v
        where v.id in (select variant_id from lines) and (select count(*) from locked) >= 0
        order by v.id for update
      ), pool as (
        select l.id as item_id, l.product_id, l.variant_id, l.qty, (vl.count_in_stock is not null) as own
        from lines l left join vlocked vl on vl.id = l.variant_id and vl.product_id = l.product_id
      ), taken as (
        update products p set count_in_stock = p.count_in_stock - s.qty
        from (select product_id, sum(qty)::int as qty from pool where not own group by product_id) s
        where p.id = s.product_id
        returning p.id as id, p.count_in_stock as stock
      ), vtaken as (
        update product_variants v set count_in_stock = v.count_in_stock - s.qty
        from (select variant_id, sum(qty)::int as qty from pool where own group by variant_id) s
        where v.id = s.variant_id
        returning v.id as id, v.count_in_stock as stock
      ), placed as (
        insert into orders (id, user_id, username, first_name, last_name, email, is_guest, shipping_address,
          shipping_rate_id, payment_method, items_cents, discount_cents, tax_cents, shipping_cents, total_cents)
        select id, user_id, username, first_name, last_name, email, is_guest, shipping_address,
          shipping_rate_id, payment_method, items_cents, discount_cents, tax_cents, shipping_cents, total_cents
        from o order by o.ord
        returning *
      ), items as (
        insert into order_items
          (id, order_id, product_id, variant_id, variant_name, name, image, price_cents, qty, from_variant_stock)
        select l.id, l.order_id, l.product_id, l.variant_id, l.variant_name, l.name, l.image, l.price_cents, l.qty,
          p.own
        from lines l join pool p on p.item_id = l.id
        returning *
      ), mail as (
        -- an order's number is known only once it is inserted: its mail's slot for it is filled here
        insert into mail_outbox (id, "to", subject, html, text, next_attempt_at)
        select o.mail_id, o.mail_to, replace(o.mail_subject, ${ORDER_NUMBER_SLOT}, p.order_number::text),
          replace(o.mail_html, ${ORDER_NUMBER_SLOT}, p.order_number::text),
          replace(o.mail_text, ${ORDER_NUMBER_SLOT}, p.order_number::text), o.mail_due
        from o join placed p on p.id = o.id
        returning id, subject
      ), history as (
        insert into order_events (id, order_id, event, by, note)
        select o.placed_event, o.id, 'placed', o.placed_by, '' from o
        union all
        select o.mail_event, o.id, 'email', 'system', left(m.subject, 500) from o join mail m on m.id = o.mail_id
        returning id
      )
      select (select json_agg(t) from taken t) as taken,
             (select json_agg(t) from vtaken t) as vtaken,
             (select json_agg(p) from placed p) as placed,
             (select json_agg(i) from items i) as items,
             (select count(*) from mail) as mails, (select count(*) from history) as events`);
    const [out] = result.rows;
    // what each pool has left: `p:` a product's own stock, `v:` a variant's
    const left = new Map([
      ...(out!.taken ?? []).map((t) => [`p:${t.id}`, t.stock] as const),
      ...(out!.vtaken ?? []).map((t) => [`v:${t.id}`, t.stock] as const),
    ]);
    const rows = new Map(out!.placed.map((p) => [p.id as string, rowFromJson(orders, p)]));
    const itemsOf = new Map<string, OrderItemRow[]>();
    for (const i of out!.items) {
      const item = rowFromJson(orderItems, i);
      const list = itemsOf.get(item.orderId);
      if (list) list.push(item);
      else itemsOf.set(item.orderId, [item]);
    }
    return placings.map(({ order }) => ({
      row: rows.get(order.id)!,
      items: (itemsOf.get(order.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      left,
    }));
  },

  /** Stock and name of each product and of the named variants, for the order gate after a refusal. */
  async stockOf(db: Conn, productIds: string[], variantIds: string[]) {
    const [ps, vs] = await Promise.all([
      productIds.length
        ? db
            .select({ id: products.id, stock: products.countInStock })
            .from(products)
            .where(inArray(products.id, productIds))
        : [],
      variantIds.length
        ? db
            .select({ id: productVariants.id, stock: productVariants.countInStock })
            .from(productVariants)
            .where(inArray(productVariants.id, variantIds))
        : [],
    ]);
    return { products: new Map(ps.map((p) => [p.id, p.stock])), variants: new Map(vs.map((v) => [v.id, v.stock])) };
  },

  /**
   * Gives back what cancelled orders had taken: each line's units to the pool they came from (a
   * variant that no longer keeps its own stock, or was deleted, has no pool to take them), and each
   * order's use of its discount code. Rows are locked in the order placing takes them (products,
   * variants, codes, each in id order), so a cancel and an order never deadlock. Answers the
   * products whose stock changed.
   */
  async returnStock(tx: Tx, orderIds: string[]): Promise<string[]> {
    if (orderIds.length === 0) return [];
    // what refunds put back already is not put back twice: each line gives back qty - restocked_qty, then
    // counts as put back in full (the self-join reads the row as it was before this update)
    const ids = `{${orderIds.join(',')}}`;
    if (!/^\{[0-9a-f]{24}(,[0-9a-f]{24})*\}$/.test(ids)) throw new Error('returnStock: bad order ids');
    const res = await tx.execute<{
      product_id: string | null;
      variant_id: string | null;
      qty: number;
      from_variant: boolean;
    }>(sql`
      update ${orderItems} i set restocked_qty = i.qty
      from ${orderItems} old
      where old.id = i.id and i.order_id = any(${ids}::char(24)[]) and i.restocked_qty < i.qty
      returning i.product_id, i.variant_id, (i.qty - old.restocked_qty)::int as qty, i.from_variant_stock as from_variant`);
    const lines = res.rows.map((r) => ({
      productId: r.product_id,
      variantId: r.variant_id,
      qty: Number(r.qty),
      fromVariant: r.from_variant,
    }));
    const touched = await this.returnUnits(tx, lines);
    // the orders' uses of their codes, in all and per e-mail address
    const used = await tx
      .select({ couponId: orders.couponId, email: orders.email })
      .from(orders)
      .where(and(inArray(orders.id, orderIds), isNotNull(orders.couponId)));
    const perCoupon = new Map<string, number>();
    const perUse = new Map<string, { couponId: string; email: string; n: number }>();
    for (const u of used) {
      const couponId = u.couponId!;
      perCoupon.set(couponId, (perCoupon.get(couponId) ?? 0) + 1);
      const email = u.email.toLowerCase();
      const key = `${couponId}/${email}`;
      perUse.set(key, { couponId, email, n: (perUse.get(key)?.n ?? 0) + 1 });
    }
    for (const id of [...perCoupon.keys()].sort())
      await tx
        .update(coupons)
        .set({ timesUsed: sql`greatest(${coupons.timesUsed} - ${perCoupon.get(id)!}, 0)` })
        .where(eq(coupons.id, id));
    for (const u of perUse.values())
      await tx
        .update(couponUses)
        .set({ uses: sql`greatest(${couponUses.uses} - ${u.n}, 0)` })
        .where(and(eq(couponUses.couponId, u.couponId), eq(couponUses.email, u.email)));
    return touched;
  },

  /**
   * Puts units back where they were taken from: a line drawn on its variant's own stock back to the variant
   * (if it still keeps its own stock), else to its product. Rows are locked in the order placing takes
   * them (products, then variants, each in id order), so this never deadlocks with an order. Answers the
   * products whose stock changed.
   */
  async returnUnits(
    tx: Tx,
    lines: { productId: string | null; variantId: string | null; qty: number; fromVariant: boolean }[],
  ): Promise<string[]> {
    const toProducts = new Map<string, number>();
    const toVariants = new Map<string, number>();
    for (const l of lines) {
      if (l.qty <= 0) continue;
      if (l.fromVariant) {
        if (l.variantId) toVariants.set(l.variantId, (toVariants.get(l.variantId) ?? 0) + l.qty);
      } else if (l.productId) toProducts.set(l.productId, (toProducts.get(l.productId) ?? 0) + l.qty);
    }
    const touched = new Set<string>();
    const pids = [...new Set(lines.map((l) => l.productId).filter((id): id is string => id !== null))].sort();
    if (pids.length)
      await tx
        .select({ id: products.id })
        .from(products)
        .where(inArray(products.id, pids))
        .orderBy(products.id)
        .for('update');
    const vids = [...toVariants.keys()].sort();
    if (vids.length) {
      await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(inArray(productVariants.id, vids))
        .orderBy(productVariants.id)
        .for('update');
      const back = await tx.execute<{ product_id: string }>(sql`
        update ${productVariants} v set count_in_stock = v.count_in_stock + s.qty
        from unnest(${`{${vids.join(',')}}`}::char(24)[], ${`{${vids.map((id) => toVariants.get(id)).join(',')}}`}::int[]) as s(id, qty)
        where v.id = s.id and v.count_in_stock is not null
        returning v.product_id`);
      for (const r of back.rows) touched.add(r.product_id);
    }
    const backIds = [...toProducts.keys()].sort();
    if (backIds.length) {
      const back = await tx.execute<{ id: string }>(sql`
        update ${products} p set count_in_stock = p.count_in_stock + s.qty
        from unnest(${`{${backIds.join(',')}}`}::char(24)[], ${`{${backIds.map((id) => toProducts.get(id)).join(',')}}`}::int[]) as s(id, qty)
        where p.id = s.id
        returning p.id`);
      for (const r of back.rows) touched.add(r.id);
    }
    return [...touched];
  },

  /**
   * Cancels up to `limit` unpaid orders placed before `cutoff`, skipping rows another process holds
   * (FOR UPDATE SKIP LOCKED: two sweepers never cancel, and so never restock, the same order twice).
   * The conditions are those of the partial index orders_unpaid_idx, which holds only such orders.
   */
  async cancelUnpaidBefore(tx: Tx, cutoff: Date, limit: number) {
    const due = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.isPaid, false),
          eq(orders.isShipped, false),
          eq(orders.isDelivered, false),
          eq(orders.isCancelled, false),
          lt(orders.createdAt, cutoff),
        ),
      )
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((r) => r.id);
    return tx
      .update(orders)
      .set({ isCancelled: true, cancelledAt: new Date() })
      .where(inArray(orders.id, ids))
      .returning({ id: orders.id, email: orders.email, firstName: orders.firstName, orderNumber: orders.orderNumber });
  },

  /** Marks paid only an unpaid, live order; undefined when another request got there first. */
  async markPaid(tx: Tx, id: string, paymentResult: NonNullable<OrderRow['paymentResult']>) {
    const [row] = await tx
      .update(orders)
      .set({ isPaid: true, paidAt: new Date(), paymentResult })
      .where(and(eq(orders.id, id), eq(orders.isPaid, false), eq(orders.isCancelled, false)))
      .returning();
    return row;
  },

  async insertPayment(tx: Conn, values: typeof payments.$inferInsert) {
    await tx.insert(payments).values(values);
  },

  async markShipped(tx: Tx, id: string) {
    const [row] = await tx
      .update(orders)
      .set({ isShipped: true, shippedAt: new Date() })
      .where(
        and(eq(orders.id, id), eq(orders.isPaid, true), eq(orders.isShipped, false), eq(orders.isCancelled, false)),
      )
      .returning();
    return row;
  },

  async insertTracking(tx: Tx, orderId: string, rows: { number: string; trackingItem: string[] }[]) {
    // one statement gives every row the same default time: spaced by a millisecond, they keep the admin's order
    const at = Date.now();
    if (rows.length)
      await tx.insert(trackingNumbers).values(rows.map((r, i) => ({ ...r, orderId, createdAt: new Date(at + i) })));
  },

  async markDelivered(db: Conn, id: string) {
    const [row] = await db
      .update(orders)
      .set({ isDelivered: true, deliveredAt: new Date() })
      .where(and(eq(orders.id, id), eq(orders.isShipped, true), eq(orders.isDelivered, false)))
      .returning();
    return row;
  },

  async insertAccessToken(db: Conn, orderId: string, tokenHash: string, expiresAt: Date) {
    await db.insert(orderAccessTokens).values({ orderId, tokenHash, expiresAt });
  },

  async pruneAccessTokens(db: Conn, orderId: string) {
    await db
      .delete(orderAccessTokens)
      .where(and(eq(orderAccessTokens.orderId, orderId), sql`${orderAccessTokens.expiresAt} <= now()`));
  },

  /** An unexpired token of this order, which a guest placed (an account's order is read signed in). */
  async accessTokenValid(db: Conn, orderId: string, tokenHash: string): Promise<boolean> {
    const [row] = await db
      .select({ orderId: orderAccessTokens.orderId })
      .from(orderAccessTokens)
      .innerJoin(orders, eq(orders.id, orderAccessTokens.orderId))
      .where(
        and(
          eq(orderAccessTokens.tokenHash, tokenHash),
          eq(orderAccessTokens.orderId, orderId),
          gt(orderAccessTokens.expiresAt, new Date()),
          eq(orders.isGuest, true),
        ),
      );
    return Boolean(row);
  },
};
