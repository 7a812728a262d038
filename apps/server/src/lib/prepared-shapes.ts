import { is, Placeholder, sql } from 'drizzle-orm';

/**
 * Puts a value into a statement being built: with `direct` the value itself; inside
 * `PreparedShapes.run` a placeholder named `name`, the value kept for the run. Typed as the value, so
 * the same builder serves both (Drizzle's operators take placeholders wherever they take values).
 * Anything computed from a value (a LIKE pattern, a range's bounds) is computed first and bound whole.
 */
export type Bind = <T>(name: string, value: T) => T;

export const direct: Bind = (_name, value) => value;

let verifying = false;

/** Whether every run of a kept shape is checked against a fresh build (not in production: it costs the build). */
export function verifyPreparedShapes(on: boolean): void {
  verifying = on;
}

/** What `run` needs of a Drizzle query: its SQL (to check) and a prepared form of it. */
interface Preparable<R> {
  toSQL(): { sql: string; params: unknown[] };
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<R> };
}

interface Kept<R> {
  text: string;
  /** The built params: placeholders where values were bound, constants of the shape elsewhere. */
  params: unknown[];
  query: { execute(values: Record<string, unknown>): Promise<R> };
}

/**
 * Statements that a hot route runs again and again with other values, built once per shape. Drizzle
 * turns a query into SQL anew on every run: about 0.12 ms for the admin product list's page (its
 * columns, joins, filters and sort), against 0.01 ms to construct the query. Here the query is still
 * constructed on every run, with placeholders for its values (`bind`), but turned into SQL and prepared
 * only the first time its shape is seen; later runs send that SQL with their values.
 *
 * The shape is the caller's `shape` (every choice of the builder that no bound value shows: the sort,
 * a filter written as `false`) and the names bound, in order (which filters are present, how many values a
 * list has). Kept per database handle (a test's app and its own database), at most `max` shapes each,
 * the least recently used dropped first. Outside production (`verifyPreparedShapes`, set by the app from
 * NODE_ENV) every run also builds the SQL and throws if it differs from the kept shape's, or if a constant
 * of the statement changed: a value the builder forgot to bind. The tests run so.
 */
export class PreparedShapes {
  private readonly perDb = new WeakMap<object, Map<string, Kept<unknown>>>();

  constructor(private readonly max = 64) {}

  async run<R>(db: object, shape: string, build: (bind: Bind) => Preparable<R>): Promise<R> {
    const values: Record<string, unknown> = {};
    const names: string[] = [];
    const bind: Bind = (name, value) => {
      if (name in values) throw new Error(`bound twice: ${name}`);
      values[name] = value;
      names.push(name);
      return sql.placeholder(name) as never;
    };
    const query = build(bind);
    const key = `${shape}|${names.join(',')}`;
    let kept = this.perDb.get(db);
    if (!kept) this.perDb.set(db, (kept = new Map()));
    let hit = kept.get(key) as Kept<R> | undefined;
    if (hit) {
      kept.delete(key);
      kept.set(key, hit);
      if (verifying) check(key, hit, query.toSQL());
    } else {
      const { sql: text, params } = query.toSQL();
      // no name: db/prepared-statements.ts names the statement by its text, within its bound
      hit = { text, params, query: query.prepare(undefined as unknown as string) };
      kept.set(key, hit);
      if (kept.size > this.max) kept.delete(kept.keys().next().value!);
    }
    return hit.query.execute(values);
  }
}

function check(key: string, kept: Kept<unknown>, now: { sql: string; params: unknown[] }): void {
  if (now.sql !== kept.text) throw new Error(`shape ${key} built another statement:\n${now.sql}\n${kept.text}`);
  now.params.forEach((p, i) => {
    const was = kept.params[i];
    const same =
      is(p, Placeholder) || is(was, Placeholder)
        ? is(p, Placeholder) && is(was, Placeholder) && p.name === was.name
        : JSON.stringify(p) === JSON.stringify(was);
    if (!same)
      throw new Error(
        `shape ${key}: parameter ${i + 1} is not bound (${JSON.stringify(p)} was ${JSON.stringify(was)})`,
      );
  });
}
