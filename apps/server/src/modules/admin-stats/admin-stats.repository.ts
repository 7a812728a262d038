import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client.ts';
import { orderItems, orders, productVariants, products } from '#server/db/schema/index.ts';

type Conn = Db | Tx;

/** A range of UTC calendar days, both ends included, as 'YYYY-MM-DD'. */
export interface DayRange {
  from: string;
  to: string;
}

/** Money in integer cents, counts as numbers. */
export interface SalesTotals {
  orders: number;
  paidOrders: number;
  grossCents: number;
  refundedCents: number;
}
export interface SalesDay {
  date: string;
  orders: number;
  grossCents: number;
  refundedCents: number;
}
export interface TopProductRow {
  id: string | null;
  name: string;
  qty: number;
  revenueCents: number;
}
export interface LowStockRow {
  id: string;
  name: string;
  variant: string;
  countInStock: number;
}

// int8 comes back as a string from node-postgres and as a number from PGlite
const num = (v: unknown) => Number(v ?? 0);

/**
 * The instants a range of UTC days covers, [lo, hi): midnight UTC of `from` and of the day after `to`,
 * whatever the session's time zone. Plain comparisons on the column, so its index answers them.
 */
const lo = (r: DayRange): SQL => sql`(${r.from}::date::timestamp at time zone 'UTC')`;
const hi = (r: DayRange): SQL => sql`((${r.to}::date + 1)::timestamp at time zone 'UTC')`;

/** The admin's sales overview: every figure is aggregated by the database. */
export const adminStatsRepository = {
  /**
   * The marks of what the overview reads: `sales` changes (in the committing transaction, whatever wrote)
   * whenever an order is placed, paid, refunded, shipped, cancelled or deleted, or its lines change;
   * `stock` whenever a product or variant is added, removed, renamed or restocked. A read of eight small
   * rows: the check every request makes before reusing figures computed earlier.
   */
  async marks(db: Conn): Promise<{ sales: string; stock: string }> {
    const result = await db.execute<{ sales: string | null; stock: string | null }>(sql`
      select string_agg(sales::text, ',' order by slot) as sales, string_agg(stock::text, ',' order by slot) as stock
      from change_marks
      -- every slot there, or none is trusted (a transaction on a missing slot would leave no mark)
      having count(*) = 8`);
    const row = result.rows[0];
    return { sales: row?.sales ?? '', stock: row?.stock ?? '' };
  },

  /**
   * One row per day of the range (zeros included) and, first, the range's totals: orders placed that day
   * (created_at, any state), orders paid that day (paid_at) and their totals, and what was refunded of
   * those. Each day's bounds are computed once and its orders counted by index-only range scans
   * (orders_created_idx, orders_paid_idx): no conversion of every row's instant to a day.
   */
  async byDay(db: Conn, range: DayRange): Promise<{ totals: SalesTotals; days: SalesDay[] }> {
    const result = await db.execute<{
      date: string | null;
      orders: unknown;
      paid_orders: unknown;
      gross_cents: unknown;
      refunded_cents: unknown;
    }>(sql`
      with days as (
        select day, (day::timestamp at time zone 'UTC') as lo, ((day + 1)::timestamp at time zone 'UTC') as hi
        from (
          select ${range.from}::date + n as day
          from generate_series(0, ${range.to}::date - ${range.from}::date) n
        ) d
      ), per_day as (
        select days.day,
          (select count(*) from ${orders} o where o.created_at >= days.lo and o.created_at < days.hi) as orders,
          paid.n as paid_orders, paid.gross_cents, paid.refunded_cents
        from days
        cross join lateral (
          select count(*) as n, coalesce(sum(o.total_cents), 0) as gross_cents,
            -- what was refunded of these orders (revenue is gross less it)
            coalesce(sum(o.refunded_cents), 0) as refunded_cents
          from ${orders} o
          where o.is_paid and o.paid_at >= days.lo and o.paid_at < days.hi
        ) paid
      )
      select to_char(day, 'YYYY-MM-DD') as date,
        sum(orders)::bigint as orders,
        sum(paid_orders)::bigint as paid_orders,
        sum(gross_cents)::bigint as gross_cents,
        sum(refunded_cents)::bigint as refunded_cents
      from per_day
      group by grouping sets ((day), ())
      order by day nulls first`);
    const [total, ...rest] = result.rows;
    return {
      totals: {
        orders: num(total?.orders),
        paidOrders: num(total?.paid_orders),
        grossCents: num(total?.gross_cents),
        refundedCents: num(total?.refunded_cents),
      },
      days: rest.map((r) => ({
        date: r.date!,
        orders: num(r.orders),
        grossCents: num(r.gross_cents),
        refundedCents: num(r.refunded_cents),
      })),
    };
  },

  /**
   * The best sellers of the orders paid in the range, by the price × quantity of their lines, then by
   * quantity: grouped by the line's product, or by its name when the product was deleted (product_id
   * null). A product's name is the one on the latest of those lines (names are snapshots), looked up for
   * the winners only. The orders come from orders_paid_idx alone, their lines by a hash join; deleted
   * products' lines, few, from order_items_product_idx.
   */
  async topProducts(db: Conn, range: DayRange, limit: number): Promise<TopProductRow[]> {
    const paidInRange = sql`o.is_paid and o.paid_at >= ${lo(range)} and o.paid_at < ${hi(range)}`;
    const result = await db.execute<{ id: string | null; name: string; qty: unknown; revenue_cents: unknown }>(sql`
      with sold as (
        select i.product_id, null::varchar as deleted_name,
          sum(i.qty) as qty, sum(i.price_cents::bigint * i.qty) as revenue_cents
        from ${orders} o
        join ${orderItems} i on i.order_id = o.id
        where ${paidInRange} and i.product_id is not null
        group by i.product_id
        union all
        select null, i.name, sum(i.qty), sum(i.price_cents::bigint * i.qty)
        from ${orders} o
        join ${orderItems} i on i.order_id = o.id
        where ${paidInRange} and i.product_id is null
        group by i.name
      ), ranked as (
        select * from sold
        order by revenue_cents desc, qty desc, product_id, deleted_name
        limit ${limit}
      )
      select r.product_id as id, r.qty::bigint as qty, r.revenue_cents::bigint as revenue_cents,
        coalesce(r.deleted_name, (
          select i.name from ${orderItems} i join ${orders} o on o.id = i.order_id
          where i.product_id = r.product_id and ${paidInRange}
          order by o.paid_at desc, o.id desc limit 1
        )) as name
      from ranked r
      order by r.revenue_cents desc, r.qty desc, r.product_id, r.deleted_name`);
    return result.rows.map((r) => ({ id: r.id, name: r.name, qty: num(r.qty), revenueCents: num(r.revenue_cents) }));
  },

  /**
   * Stock that can run out, at most `threshold`, lowest first: a product's own count when it has no
   * variants or some variant draws on it (count_in_stock null), and each variant with a count of its own.
   */
  async lowStock(db: Conn, threshold: number, limit: number): Promise<LowStockRow[]> {
    const result = await db.execute<{ id: string; name: string; variant: string; count_in_stock: unknown }>(sql`
      select p.id, p.name, '' as variant, p.count_in_stock
      from ${products} p
      left join (
        select v.product_id, bool_or(v.count_in_stock is null) as draws
        from ${productVariants} v
        group by v.product_id
      ) pools on pools.product_id = p.id
      -- no variants (no pools row), or some variant draws on the product's stock
      where p.count_in_stock <= ${threshold} and coalesce(pools.draws, true)
      union all
      select p.id, p.name, v.name, v.count_in_stock
      from ${productVariants} v
      join ${products} p on p.id = v.product_id
      where v.count_in_stock <= ${threshold}
      order by count_in_stock, name, variant, id
      limit ${limit}`);
    return result.rows.map((r) => ({
      id: r.id,
      name: r.name,
      variant: r.variant,
      countInStock: num(r.count_in_stock),
    }));
  },

  /** Paid orders not shipped yet and not cancelled, whatever their date (orders_to_ship_idx). */
  async toShip(db: Conn): Promise<number> {
    const result = await db.execute<{ n: unknown }>(sql`
      select count(*) as n from ${orders} o
      where o.is_paid and not o.is_shipped and not o.is_cancelled`);
    return num(result.rows[0]?.n);
  },
};
