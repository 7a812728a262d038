/**
 * A per-process admission gate in front of the stock UPDATE, so that a burst of orders for the last
 * units does not send every buyer to the database to queue on the product's row lock.
 *
 * Per stock pool (a product's own stock, or a variant's that keeps its own) it counts the units that
 * orders of this process are taking right now (admitted, not yet ended). Each order reads the pools'
 * stock after it arrived (the caller's `read`, shared by
 * concurrent orders through lib/batch-loader.ts), and is decided by what was seen since it arrived
 * (that read, or what orders in flight reported when they ended):
 * - enough units beyond those in flight here: admitted;
 * - fewer than it wants even if every order in flight fails: refused at once (409, nothing written);
 * - enough only if some order in flight here fails: held until they end, then decided again (or sent
 *   to the database after `waitMs`).
 * Only what was seen during the order's own lifetime counts, so each refusal is the truth at a moment
 * while the order was being placed, however the stock was changed. `drop()` (every catalogue write, in
 * every process through the cache bus) sends held orders to the database. The conditional stock
 * UPDATE stays the judge: the gate only refuses orders that the stock seen could not serve.
 *
 * A pool need not be read before admission: a discount code limited to N uses is a pool (`code:<CODE>`)
 * that nothing reads here, so it is never judged until an order in flight reports it used up (stock
 * 0). From then on, orders held that arrived before that report and carry the code are refused at once,
 * instead of each being admitted in turn to find it used up in the database.
 */
export interface StockNeed {
  /**
   * The stock the units come from: a product's own (`p:<id>`) or a variant's (`v:<id>`); or a limited
   * resource reported only by orders that ended (`code:<CODE>`: a discount code's uses left).
   */
  pool: string;
  qty: number;
}

export interface StockInfo {
  stock: number;
  name: string;
}

/** What an admitted order saw when it ended: per pool, the stock left (or an upper bound of it). */
export type StockOutcome = Map<string, StockInfo>;

export class SoldOut extends Error {
  constructor(
    readonly productName: string,
    /** The pool that is short: the caller tells a product's stock from a code's uses by it. */
    readonly pool: string,
  ) {
    super(`Not enough stock for ${productName}`);
  }
}

interface Seen extends StockInfo {
  /** The gate's clock when it was seen: orders that arrived before may act on it. */
  at: number;
}

interface Waiter {
  needs: StockNeed[];
  arrived: number;
  settle: (verdict: Decided) => void;
}

type Decided = { admit: true } | { admit: false; name: string; pool: string };
type Verdict = Decided | 'wait';
export type Release = (outcome?: StockOutcome) => void;

export class StockGate {
  private seen = new Map<string, Seen>();
  private reserved = new Map<string, number>();
  private waiters = new Map<string, Set<Waiter>>();
  /** Counts events (arrivals, reads, ends, drops): "seen after the order arrived" is `at > arrived`. */
  private clock = 0;
  private lastDrop = 0;

  constructor(private readonly opts: { waitMs: number } = { waitMs: 2_000 }) {}

  /** Stock may have gone up (a catalogue write): forget what was seen; held orders go to the database. */
  drop(): void {
    this.lastDrop = ++this.clock;
    this.seen.clear();
    for (const set of [...this.waiters.values()]) for (const w of [...set]) w.settle({ admit: true });
  }

  /**
   * Reads the stock (`read`, after the order arrived; `wanted` may be a function called after it),
   * then waits until the order may go to the
   * database and answers the function to call when it has ended (always: committed, refused or
   * failed). Throws SoldOut when the units are gone.
   */
  async admit(
    wanted: StockNeed[] | (() => StockNeed[]),
    read: () => Promise<Map<string, StockInfo>>,
  ): Promise<Release> {
    const arrived = ++this.clock;
    const found = await read();
    // the pools an order draws on may only be known once its products are read
    const needs = typeof wanted === 'function' ? wanted() : wanted;
    if (this.lastDrop < arrived) {
      const at = ++this.clock;
      for (const [id, info] of found) this.seen.set(id, { ...info, at });
    }
    const verdict = this.decide(needs, arrived);
    if (verdict === 'wait') return this.hold(needs, arrived);
    if (verdict.admit) return this.reserve(needs);
    this.forget(needs);
    throw new SoldOut(verdict.name, verdict.pool);
  }

  /** Drops what was seen of pools nobody here is placing or waiting for: no later order may use it. */
  private forget(needs: StockNeed[]): void {
    for (const n of needs) if (this.inFlight(n.pool) === 0 && !this.waiters.has(n.pool)) this.seen.delete(n.pool);
  }

  /** Products with something seen kept (for tests: nothing is kept once their orders are decided). */
  remembered(): number {
    return this.seen.size;
  }

  /** Units that orders of this process are taking now (admitted, not yet ended). */
  inFlight(pool: string): number {
    return this.reserved.get(pool) ?? 0;
  }

  /** Orders held back now (for tests and metrics). */
  held(): number {
    const all = new Set<Waiter>(); // an order held for several pools counts once
    for (const set of this.waiters.values()) for (const w of set) all.add(w);
    return all.size;
  }

  private reserve(needs: StockNeed[]): Release {
    for (const n of needs) this.reserved.set(n.pool, this.inFlight(n.pool) + n.qty);
    const admittedAt = this.clock;
    let ended = false;
    return (outcome) => {
      if (ended) return;
      ended = true;
      for (const n of needs) {
        const left = this.inFlight(n.pool) - n.qty;
        if (left > 0) this.reserved.set(n.pool, left);
        else this.reserved.delete(n.pool);
      }
      const at = ++this.clock;
      // what the database said is only worth keeping when no write came in since the order was admitted
      if (outcome && this.lastDrop < admittedAt)
        for (const [id, info] of outcome) this.seen.set(id, { ...info, stock: Math.max(0, info.stock), at });
      for (const n of needs) this.wake(n.pool);
      this.forget(needs);
    };
  }

  /**
   * Per pool, by what was seen since the order arrived: short even if every order in flight here
   * fails, refused; enough only if some of them fail, held; enough, admitted. Nothing seen since (a
   * drop, or an unknown pool): the database decides.
   */
  private decide(needs: StockNeed[], arrived: number): Verdict {
    let wait = false;
    for (const n of needs) {
      const s = this.seen.get(n.pool);
      if (s === undefined || s.at <= arrived) continue;
      if (s.stock < n.qty) return { admit: false, name: s.name, pool: n.pool };
      if (this.inFlight(n.pool) + n.qty > s.stock) wait = true;
    }
    return wait ? 'wait' : { admit: true };
  }

  private hold(needs: StockNeed[], arrived: number): Promise<Release> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const waiter: Waiter = {
        needs,
        arrived,
        settle: (verdict) => {
          if (settled) return; // held for several pools: decided once
          settled = true;
          clearTimeout(timer);
          for (const n of needs) {
            const set = this.waiters.get(n.pool);
            set?.delete(waiter);
            if (set?.size === 0) this.waiters.delete(n.pool);
          }
          // reserved before the next held order is decided, so that one sees these units taken
          if (verdict.admit) resolve(this.reserve(needs));
          else reject(new SoldOut(verdict.name, verdict.pool));
        },
      };
      for (const n of needs) {
        let set = this.waiters.get(n.pool);
        if (!set) this.waiters.set(n.pool, (set = new Set()));
        set.add(waiter);
      }
      // held too long (a slow transaction): let the database decide
      const timer = setTimeout(() => waiter.settle({ admit: true }), this.opts.waitMs);
      timer.unref();
    });
  }

  /** Decides, in arrival order, the held orders for this pool that can be decided now. */
  private wake(pool: string): void {
    const set = this.waiters.get(pool);
    if (!set) return;
    for (const waiter of [...set]) {
      const verdict = this.decide(waiter.needs, waiter.arrived);
      if (verdict !== 'wait') waiter.settle(verdict);
    }
  }
}
