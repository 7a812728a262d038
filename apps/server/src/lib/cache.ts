import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The content codings a kept answer is sent in; anything else gets the JSON text as it is. */
export type AnswerEncoding = 'br' | 'gzip' | 'identity';

/** Answers smaller than this go out as they are (compression would save a few bytes at most). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * A kept answer: its JSON text, a validator for HTTP revalidation (If-None-Match), and its bytes per
 * content coding, each compressed once on first use and kept with the answer (dropped with it).
 */
export class CachedAnswer {
  readonly etag: string;
  private readonly bytes: Partial<Record<AnswerEncoding, Buffer>> = {};

  constructor(value: string) {
    this.etag = etagOf(value);
    // kept as bytes only: sending a Buffer spares the per-request UTF-8 encoding of the text
    this.bytes.identity = Buffer.from(value);
  }

  /** Bytes held: the JSON text and each coding made of it so far. */
  get bytesHeld(): number {
    let n = 0;
    for (const b of Object.values(this.bytes)) n += b.length;
    return n;
  }

  /** The JSON text. */
  get value(): string {
    return this.bytes.identity!.toString();
  }

  /** The bytes to send for a negotiated coding, and the coding actually used (small answers stay identity). */
  encoded(encoding: AnswerEncoding): { body: Buffer; encoding: AnswerEncoding } {
    const identity = this.bytes.identity!;
    if (encoding === 'identity' || identity.length < COMPRESS_THRESHOLD)
      return { body: identity, encoding: 'identity' };
    let body = this.bytes[encoding];
    if (!body) {
      // once per answer and coding: brotli at a quality far above what per-request compression could afford
      body =
        encoding === 'br'
          ? zlib.brotliCompressSync(identity, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
              },
            })
          : zlib.gzipSync(identity, { level: 6 });
      this.bytes[encoding] = body;
    }
    return { body, encoding };
  }
}

const negotiated = new Map<string, AnswerEncoding>();

/**
 * The coding to answer in for an Accept-Encoding header (RFC 9110 §12.5.3): the acceptable coding with
 * the highest weight, brotli before gzip on a tie (`x-gzip` is gzip, `*` any coding not named); identity
 * when neither is acceptable, when identity is weighted above both, or without the header. Remembered
 * per distinct header value (browsers send a handful).
 */
export function negotiateEncoding(header: string | undefined): AnswerEncoding {
  if (!header) return 'identity';
  const known = negotiated.get(header);
  if (known) return known;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^q=([0-9.]+)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q)) continue;
    const key = name === 'x-gzip' ? 'gzip' : name;
    weights.set(key, Math.max(weights.get(key) ?? 0, q));
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  // identity stays acceptable unless refused; a client that names it above every compression gets it
  const identity = weights.get('identity') ?? 0;
  const best: AnswerEncoding =
    Math.max(br, gzip) <= identity ? 'identity' : br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : 'identity';
  if (negotiated.size < 200) negotiated.set(header, best);
  return best;
}

export function etagOf(text: string): string {
  return `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 22)}"`;
}

/** True when an If-None-Match header names this tag (or `*`); weak comparison, as RFC 9110 asks for GET. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

/** Every kept answer varies on Accept-Encoding (its coding), and on Authorization (admins see more). */
const VARY = 'Authorization, Accept-Encoding';

/**
 * Sends a kept answer as the bytes kept with it, compressed once per answer and coding (br, gzip) rather
 * than once per request: routes answering so opt out of @fastify/compress (`compress: false`) and the
 * coding is negotiated here.
 */
function sendAnswer(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  const { body, encoding } = answer.encoded(negotiateEncoding(req.headers['accept-encoding']));
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * An answer anyone may see: it carries an entity tag and may be kept by browsers and shared caches, but
 * is revalidated on every use (no-cache); a matching If-None-Match answers 304 without a body.
 */
export function publicAnswer(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('cache-control', 'public, no-cache').header('etag', answer.etag).header('vary', VARY);
  if (etagMatches(req.headers['if-none-match'], answer.etag)) return reply.code(304).send();
  return sendAnswer(req, reply, answer);
}

/** An answer for one caller only (an admin's, with the supplier's link): never stored anywhere. */
export function privateAnswer(req: FastifyRequest, reply: FastifyReply, answer: CachedAnswer) {
  reply.header('cache-control', 'private, no-store').header('vary', VARY);
  return sendAnswer(req, reply, answer);
}

/**
 * Why answers were dropped: any catalogue write, or only a change of the given products' stock: taken by
 * orders, or given back by expired orders (which may let held orders through: see the stock gate).
 */
export type DropReason = 'write' | 'stock-taken' | 'stock-returned';

/** A drop that only changed stock: answers that do not show these products stay. */
export const onlyStock = (reason: DropReason) => reason === 'stock-taken' || reason === 'stock-returned';

/** Which products' stock an answer shows; undefined: it may show any product's. */
export type ProductsOf = (value: unknown) => Iterable<string>;

interface Kept {
  answer: CachedAnswer;
  expires: number;
  generation: number;
  /** The products whose stock the answer shows; undefined: unknown (dropped on any stock change). */
  products: ReadonlySet<string> | undefined;
}

/** How many stock changes are remembered for answers being produced (older ones count as touching). */
const STOCK_LOG = 1000;

const touches = (products: ReadonlySet<string> | undefined, ids: ReadonlySet<string>) =>
  products === undefined || [...ids].some((id) => products.has(id));

/**
 * A small in-process cache of serialised answers with a time limit and a generation counter:
 * `invalidate()` (called on every catalogue write) drops everything at once, and tells the other
 * processes through `broadcast` when one is connected (Redis pub/sub, see cache-bus.ts); they call
 * `dropLocal()`. Without a broadcast an answer is at most `ttlMs` old in the other processes.
 * An order changes only the stock of its products: `invalidate('stock-taken', ids)` drops only the
 * answers that show one of them (each answer says which, through `productsOf`), so a shop taking
 * orders keeps the rest of its pages cached.
 *
 * Memory is bounded twice: at most `maxEntries` answers, and none kept past its time limit (a sweep every
 * `ttlMs` while anything is kept drops the expired ones, so a shop that goes quiet gives the memory back
 * instead of holding its last 2,000 answers).
 */
export class AnswerCache {
  /** In the order kept, which is the order they expire in (every answer lives `ttlMs`). */
  private entries = new Map<string, Kept>();
  private sweeper: NodeJS.Timeout | undefined;
  private inFlight = new Map<string, { answer: Promise<CachedAnswer>; generation: number }>();
  private generation = 0;
  private stockSeq = 0;
  private stockLog: { seq: number; ids: ReadonlySet<string> }[] = [];
  private broadcast: ((reason: DropReason, productIds?: string[]) => Promise<void>) | undefined;
  private listeners: ((reason: DropReason, productIds?: readonly string[]) => void)[] = [];

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /**
   * The kept answer with its entity tag and encoded bytes, produced (and kept) when missing or stale.
   * Concurrent misses of one key share one produce() (no stampede on the database when an answer
   * expires under load); a miss after a write never joins a produce() that started before it.
   * `productsOf` names the products whose stock the answer shows (none: `() => []`).
   */
  entry(key: string, produce: () => Promise<unknown>, productsOf?: ProductsOf): Promise<CachedAnswer> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now() && hit.generation === this.generation) return Promise.resolve(hit.answer);
    const flight = this.inFlight.get(key);
    if (flight && flight.generation === this.generation) return flight.answer;
    const generation = this.generation;
    const answer = this.produce(key, generation, this.stockSeq, produce, productsOf);
    this.inFlight.set(key, { answer, generation });
    const done = () => {
      if (this.inFlight.get(key)?.answer === answer) this.inFlight.delete(key);
    };
    answer.then(done, done);
    return answer;
  }

  private async produce(
    key: string,
    generation: number,
    stockSeq: number,
    produce: () => Promise<unknown>,
    productsOf: ProductsOf | undefined,
  ): Promise<CachedAnswer> {
    const now = Date.now();
    const value = await produce();
    const answer = new CachedAnswer(JSON.stringify(value));
    const products = productsOf ? new Set(productsOf(value)) : undefined;
    // a write during produce() bumped the generation, or an order took stock the answer shows: do not
    // keep an answer that may predate it
    if (generation === this.generation && !this.stockTakenSince(stockSeq, products)) {
      this.sweep();
      // deleted first, so the map stays in expiry order
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, { answer, expires: now + this.ttlMs, generation, products });
      this.sweeper ??= setInterval(() => this.sweep(), this.ttlMs).unref();
    }
    return answer;
  }

  /** Drops the expired answers (the oldest first, until one is still fresh); stops sweeping when none is left. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, kept] of this.entries) {
      if (kept.expires > now) break;
      this.entries.delete(key);
    }
    if (this.entries.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }

  /** How many answers are kept and the bytes they hold (tests). */
  get held(): { answers: number; bytes: number } {
    let bytes = 0;
    for (const kept of this.entries.values()) bytes += kept.answer.bytesHeld;
    return { answers: this.entries.size, bytes };
  }

  private stockTakenSince(seq: number, products: ReadonlySet<string> | undefined): boolean {
    if (seq === this.stockSeq) return false;
    const oldest = this.stockLog[0]?.seq ?? Infinity;
    if (seq + 1 < oldest) return true; // forgotten changes: assume they touch it
    return this.stockLog.some((e) => e.seq > seq && touches(products, e.ids));
  }

  async get(key: string, produce: () => Promise<unknown>, productsOf?: ProductsOf): Promise<string> {
    return (await this.entry(key, produce, productsOf)).value;
  }

  /** Connects the cross-process broadcast (one per cache). */
  connect(broadcast: (reason: DropReason, productIds?: string[]) => Promise<void>): void {
    this.broadcast = broadcast;
  }

  /**
   * Also tells `listener` of every drop, here or told by another process (e.g. the order stock gate), with
   * the products whose stock alone changed when they are known.
   */
  onDrop(listener: (reason: DropReason, productIds?: readonly string[]) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Drops this process's answers only (a write elsewhere, told through the broadcast): all of them, or
   * for `stock-taken` with product ids, those that show one of these products.
   */
  dropLocal(reason: DropReason = 'write', productIds?: readonly string[]): void {
    if (onlyStock(reason) && productIds && productIds.length > 0) {
      const ids = new Set(productIds);
      this.stockLog.push({ seq: ++this.stockSeq, ids });
      if (this.stockLog.length > STOCK_LOG) this.stockLog.shift();
      for (const [key, kept] of this.entries) if (touches(kept.products, ids)) this.entries.delete(key);
      // later requests do not join answers being read before the change (they are not kept if they show it)
      this.inFlight.clear();
    } else {
      this.generation++;
      this.entries.clear();
      this.inFlight.clear();
    }
    for (const listener of this.listeners) listener(reason, productIds);
  }

  /**
   * Drops answers here and, when connected, in every other process. Resolves once the others were told
   * (never rejects: a broadcast failure leaves them with the time limit). `stock-taken` says the write
   * only lowered the stock of `productIds` (an order): only answers showing them go, and the stock gate
   * needs not forget anything.
   */
  async invalidate(reason: DropReason = 'write', productIds?: readonly string[]): Promise<void> {
    this.dropLocal(reason, productIds);
    if (this.broadcast) await this.broadcast(reason, productIds ? [...productIds] : undefined).catch(() => {});
  }
}
