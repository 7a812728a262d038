import pg from 'pg';

/**
 * Which statements run as named prepared statements on PostgreSQL. A statement sent unnamed is parsed,
 * analysed and planned again each time: for the order-placing statement that was 1.3 ms of the server's
 * 2.3 ms, and for a list's small reads more than the read itself. A named one is parsed once per
 * connection and, once PostgreSQL's plan cache finds a generic plan as good as the custom ones (its
 * default `plan_cache_mode = auto`, after five custom plans), planned once too.
 *
 * A text gets a name the second time it is seen (a statement run once, a migration say, never does), up
 * to `maxNames` texts per process: each connection keeps what it prepared until it closes, so the bound
 * keeps the server's memory bounded too. Texts are counted in a map that is emptied when full, so texts
 * built from ever-changing parts cannot make it grow either.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly maxNames = 100,
    private readonly maxSeen = 2000,
  ) {}

  /** The name `text` runs under, or undefined to run it unnamed. */
  nameOf(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.maxNames) return name;
    const times = (this.seen.get(text) ?? 0) + 1;
    if (times < 2) {
      if (this.seen.size >= this.maxSeen) this.seen.clear();
      this.seen.set(text, times);
      return undefined;
    }
    this.seen.delete(text);
    const given = `store_${this.names.size + 1}`;
    this.names.set(text, given);
    return given;
  }

  get size(): number {
    return this.names.size;
  }
}

/**
 * A pg Client class whose query configs with values ({ text } and its values, as Drizzle sends them) run
 * as named prepared statements when `names` gives them a name. Queries without values (they may hold
 * several statements), plain text queries and query objects of their own (cursors, streams) go as they are.
 */
export function preparingClient(names: StatementNames): typeof pg.Client {
  class PreparingClient extends pg.Client {}
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  Object.defineProperty(PreparingClient.prototype, 'query', {
    value: function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      // only a query with values: one without goes by the simple protocol, which may hold several
      // statements (a prepared statement holds one), and keeps doing so
      const values = rest[0] ?? (config as { values?: unknown } | null)?.values;
      if (
        config !== null &&
        typeof config === 'object' &&
        !('submit' in config) &&
        (config as { name?: unknown }).name === undefined &&
        Array.isArray(values) &&
        values.length > 0
      ) {
        const text = (config as { text?: unknown }).text;
        const name = typeof text === 'string' ? names.nameOf(text) : undefined;
        if (name !== undefined) return query.call(this, { ...config, name }, ...rest);
      }
      return query.call(this, config, ...rest);
    },
  });
  return PreparingClient;
}
