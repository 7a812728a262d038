import type { FastifyInstance } from 'fastify';
import { batchLoader } from '#server/lib/batch-loader.ts';
import { batchWriter } from '#server/lib/batch-writer.ts';
import { currentRates, parseShippingRates } from '../shipping/shipping-rates.ts';
import { createOrderSweeper } from './order-expiry.ts';
import { ordersRepository, type Placing } from './orders.repository.ts';
import type { PlaceOrderContext } from './orders.service.ts';
import type { ProductForOrder } from './pricing.ts';
import { StockGate } from './stock-gate.ts';

/** Placing statements at once per process, and orders per statement at most. */
const PLACING_STATEMENTS = 2;
const PLACING_BATCH = 64;

/** Reads of the products and shipping rates that concurrent orders share, and the statements they share. */
type OrderLoaders = Pick<PlaceOrderContext, 'products' | 'rates' | 'place'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's admission gate in front of the stock UPDATE (stock-gate.ts). */
    stockGate: StockGate;
    /**
     * Shared reads for placing orders, each still following the order's arrival (lib/batch-loader.ts), and
     * the shared placing statement (lib/batch-writer.ts).
     */
    orderLoaders: OrderLoaders;
  }
}

/**
 * What placing orders needs besides its routes: the stock gate, the reads concurrent orders share, and
 * the sweeper that cancels unpaid orders once their hold is over. Registered before the order routes.
 */
export function registerOrders(app: FastifyInstance): void {
  const { db, config } = app;
  // parsed at start-up: a bad SHIPPING_RATES stops the server with a message naming it
  const envRates = parseShippingRates(config.shippingRates);

  // orders for units known to be gone are refused without writing (stock-gate.ts)
  const gate = new StockGate();
  app.decorate('stockGate', gate);
  // stock goes up only through catalogue writes (admin edits, expired orders): each one resets the gate
  app.catalogCache.onDrop((reason) => {
    if (reason !== 'stock-taken') gate.drop();
  });

  const productById = batchLoader(async (ids: string[]) => {
    const [found, variants] = await Promise.all([
      ordersRepository.productsFor(db, ids),
      ordersRepository.variantsFor(db, ids),
    ]);
    const byProduct = new Map<string, ProductForOrder['variants']>();
    for (const { productId, ...v } of variants) byProduct.set(productId, [...(byProduct.get(productId) ?? []), v]);
    return new Map(found.map((p) => [p.id, { ...p, variants: byProduct.get(p.id) ?? [] } satisfies ProductForOrder]));
  });
  const rates = batchLoader(async (keys: 'rates'[]) => {
    const current = await currentRates(db, envRates);
    return new Map(keys.map((k) => [k, current]));
  });
  // Orders arriving together are placed by one statement and one commit (each still decided on its own:
  // lib/batch-writer.ts). A commit waits for the disk; while two statements are on their way, the orders
  // arriving meanwhile gather for the next one instead of each waiting for a commit of its own.
  const place = batchWriter((placings: Placing[]) => ordersRepository.placeMany(db, placings), {
    maxInFlight: PLACING_STATEMENTS,
    maxBatch: PLACING_BATCH,
  });
  app.decorate('orderLoaders', {
    products: async (ids) => (await Promise.all(ids.map(productById))).filter((p) => p !== undefined),
    rates: async () => (await rates('rates'))!,
    place,
  } satisfies OrderLoaders);

  // unpaid orders give their stock back after the hold (ORDER_HOLD_MINUTES; 0 keeps them forever)
  const sweeper = createOrderSweeper(
    db,
    {
      holdMinutes: config.orderHold.minutes,
      everyMs: config.orderHold.sweepMs,
      publicUrl: config.publicUrl,
      // only the answers showing the restocked products go; held orders are decided again (stock gate)
      onExpired: (products) => app.catalogCache.invalidate('stock-returned', products),
    },
    app.log,
  );
  app.addHook('onReady', async () => sweeper.start());
  app.addHook('onClose', async () => sweeper.stop());
}
