import type { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import {
  CSV_IMPORT_MAX_BYTES,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_COLUMNS_WITHOUT_STATUS,
  PRODUCT_MESSAGES,
  publishProblem,
  SKU_MAX,
  cleanText,
  fromCents,
  productUpdateSchema,
  unescapeCsvFormula,
  type ImportProgress,
  type ImportResult,
  type ProductUpdateInput,
  type VariantInput,
} from '@store/shared';
import { parse } from 'csv-parse/sync';
import type { Db, Tx } from '#server/db/client.ts';
import { csvStream } from '#server/lib/csv.ts';
import { BadRequestError, ConflictError, HttpError, NotFoundError } from '#server/lib/errors.ts';
import { newId } from '#server/lib/ids.ts';
import { pgErrorOf, uniqueViolation } from '#server/lib/sql.ts';
import { catalogRepository } from '../catalog/catalog.repository.ts';
import { sanitizeDescription } from './description.ts';
import { productsAdminRepository } from './products-admin.repository.ts';
import { productColumns, variantValues } from './products-admin.service.ts';
import {
  productsCsvRepository as repo,
  type CsvProductRow,
  type ProductWrite,
  type VariantRow,
  type VariantWrite,
} from './products-csv.repository.ts';

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];
type Cells = Record<Column, string>;
export interface RowError {
  row: number;
  message: string;
}

/** Products read per page of an export, and written per statement of an import. */
const BATCH = 500;
/** Rows checked between two turns of the event loop (progress polls are answered meanwhile). */
const CHECK_SLICE = 100;
/** At most this many row errors are answered (the first ones, by row). */
const MAX_ROW_ERRORS = 1000;
/** Lowercase letters and digits, with hyphens inside: `brass-desk-lamp`. */
const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const SLUG_MAX = 100;

export const CSV_IMPORT_MESSAGES = {
  rowsInvalid: 'Some rows are not valid: nothing was imported',
  notMultipart: 'Send the CSV file as multipart/form-data in the field "file"',
  noFile: 'Please choose a CSV file to import (form field "file")',
  tooLarge: `The file is larger than ${CSV_IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  malformed: 'Malformed multipart body',
  empty: 'The file is empty: its first row must be the header',
  notCsv: (detail: string) => `The file could not be read as CSV: ${detail}`,
  header: (problems: string) =>
    `The header row does not match (${problems}). It must be: ${PRODUCT_CSV_COLUMNS.join(',')}`,
  cellCount: (n: number, width: number = PRODUCT_CSV_COLUMNS.length) => `The row has ${n} cells, the header ${width}`,
  nul: 'A cell holds a NUL character',
  slugRequired: 'Slug is required',
  slug: `Slug must be lowercase letters, digits and hyphens (at most ${SLUG_MAX}), starting and ending with a letter or digit`,
  slugRepeated: (slug: string, row: number) => `Slug ${slug} is also in row ${row}`,
  slugFormer: (slug: string) =>
    `Slug ${slug} belonged to another product before (old links lead there): choose another`,
  categoryNotFound: (name: string) => `Category not found: ${name}`,
  variants: 'Variants must be a JSON array of {name, src, price, countInStock, sku}',
  status: "Status must be 'draft', 'active' or empty (a new product is active; a known one keeps its status)",
  skuRepeated: (sku: string, row: number) => `SKU ${sku} is also given in row ${row}`,
  changedMeanwhile: 'The catalogue changed while the file was imported: nothing was imported. Please try again.',
  jobRunning: 'An import with this job id is already running',
  jobNotFound: 'Import job not found',
} as const;

/** Some rows broke a rule: nothing was written; each is listed by its row (row 2 is the first data row). */
export class ImportRowsError extends BadRequestError {
  constructor(readonly errors: RowError[]) {
    super(CSV_IMPORT_MESSAGES.rowsInvalid);
  }
}

// ---- export ------------------------------------------------------------------------------------

/** The variants cell: a JSON array of {name, src, price, countInStock, sku}, in the variants' order. */
function variantsCell(variants: VariantRow[]): string {
  return JSON.stringify(
    variants.map((v) => ({
      name: v.name,
      src: v.src,
      price: v.priceCents === null ? null : fromCents(v.priceCents),
      countInStock: v.countInStock,
      sku: v.sku,
    })),
  );
}

/** A product as a CSV row shows it (before formula escaping). */
function cellsOf(p: CsvProductRow, variants: VariantRow[]): Cells {
  return {
    _id: p.id,
    slug: p.slug,
    name: p.name,
    brand: p.brand,
    category: p.categoryName ?? '',
    price: String(fromCents(p.priceCents)),
    countInStock: String(p.countInStock),
    purchaseLink: p.purchaseLink,
    shippingMethod: p.shippingMethod,
    image: p.image,
    video: p.video,
    description: p.description,
    variants: variantsCell(variants),
    status: p.status,
  };
}

function byProduct(variants: VariantRow[]): Map<string, VariantRow[]> {
  const map = new Map<string, VariantRow[]>();
  for (const v of variants) {
    const list = map.get(v.productId);
    if (list) list.push(v);
    else map.set(v.productId, [v]);
  }
  return map;
}

/**
 * GET /api/products/export: every product as a CSV row, read in pages of 500 by id (each page's variants
 * in one query) and written as the client reads, so memory stays flat however large the catalogue.
 */
export function exportProducts(db: Db): Readable {
  async function* records() {
    for (let after = ''; ;) {
      const page = await repo.pageAfter(db, after, BATCH);
      const variants = byProduct(
        await catalogRepository.variantsFor(
          db,
          page.map((p) => p.id),
        ),
      );
      for (const p of page) {
        const cells = cellsOf(p, variants.get(p.id) ?? []);
        yield PRODUCT_CSV_COLUMNS.map((c) => cells[c]);
      }
      if (page.length < BATCH) return;
      after = page[page.length - 1]!.id;
    }
  }
  return csvStream(PRODUCT_CSV_COLUMNS, records());
}

// ---- import: reading ---------------------------------------------------------------------------

/**
 * The bytes of the uploaded file (multipart field `file`), counted into the progress as they arrive.
 * Over CSV_IMPORT_MAX_BYTES (the parser cuts the file off there): 413.
 */
export async function receiveCsv(
  file: Promise<MultipartFile | undefined>,
  progress: ImportProgress,
  expectedBytes: number,
): Promise<Buffer> {
  progress.total = expectedBytes;
  try {
    const part = await file;
    if (!part || part.fieldname !== 'file') {
      part?.file.resume();
      throw new BadRequestError(CSV_IMPORT_MESSAGES.noFile);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      progress.done += chunk.length;
      progress.total = Math.max(progress.total, progress.done);
    }
    if (part.file.truncated) throw new HttpError(413, CSV_IMPORT_MESSAGES.tooLarge);
    return Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof HttpError || (err as { statusCode?: number }).statusCode) throw err;
    // the parser gave up on the body (no boundary, a broken part header, an early end): the client's fault
    throw new BadRequestError(CSV_IMPORT_MESSAGES.malformed);
  }
}

interface CsvRow {
  row: number;
  cells: Cells;
}

/** The header names every column in order; a file without the last one (status) is read too. Answers its width. */
function checkHeader(header: string[]): number {
  const got = header.map((h) => h.trim());
  for (const columns of [PRODUCT_CSV_COLUMNS, PRODUCT_CSV_COLUMNS_WITHOUT_STATUS])
    if (got.length === columns.length && got.every((h, i) => h === columns[i])) return columns.length;
  const optional = new Set<string>(['status']);
  const known = new Set<string>(PRODUCT_CSV_COLUMNS);
  const missing = PRODUCT_CSV_COLUMNS.filter((c) => !got.includes(c) && !optional.has(c));
  const unknown = got.filter((c) => !known.has(c));
  const repeated = [...new Set(got.filter((c, i) => got.indexOf(c) !== i))];
  const problems = [
    missing.length ? `missing columns: ${missing.join(', ')}` : '',
    unknown.length ? `unknown columns: ${unknown.map((c) => c || '(empty)').join(', ')}` : '',
    repeated.length ? `repeated columns: ${repeated.join(', ')}` : '',
  ].filter(Boolean);
  throw new BadRequestError(CSV_IMPORT_MESSAGES.header(problems.join('; ') || 'the columns are in another order'));
}

/**
 * The data rows of a products CSV (a UTF-8 byte order mark is skipped), numbered as a spreadsheet shows
 * them: the header is row 1. Blank rows are passed over; a row with another number of cells than the
 * header is an error of its own. Cells lose the quote the export put before formula-like text.
 */
function readRows(bytes: Buffer): { rows: CsvRow[]; errors: RowError[] } {
  let records: string[][];
  try {
    // a quote inside an unquoted cell is taken as it is (files written by hand)
    records = parse(bytes, { bom: true, relax_column_count: true, relax_quotes: true });
  } catch (err) {
    // csv-parse names the problem and its line
    throw new BadRequestError(CSV_IMPORT_MESSAGES.notCsv(String((err as Error).message).slice(0, 300)));
  }
  const [header, ...data] = records;
  if (!header) throw new BadRequestError(CSV_IMPORT_MESSAGES.empty);
  const width = checkHeader(header);
  const rows: CsvRow[] = [];
  const errors: RowError[] = [];
  data.forEach((record, i) => {
    const row = i + 2;
    if (record.every((c) => c.trim() === '')) return;
    if (record.length !== width)
      return void errors.push({ row, message: CSV_IMPORT_MESSAGES.cellCount(record.length, width) });
    if (record.some((c) => c.includes('\u0000'))) return void errors.push({ row, message: CSV_IMPORT_MESSAGES.nul });
    const cells = Object.fromEntries(PRODUCT_CSV_COLUMNS.map((c, k) => [c, unescapeCsvFormula(record[k] ?? '')]));
    rows.push({ row, cells: cells as Cells });
  });
  return { rows, errors };
}

// ---- import: checking --------------------------------------------------------------------------

interface Current {
  row: CsvProductRow;
  variants: VariantRow[];
  cells: Cells;
}

/** What the database holds for the rows of a file, read before anything is written. */
interface Context {
  bySlug: Map<string, Current>;
  formerSlugs: Set<string>;
  /** Category ids by lower-case name. */
  categories: Map<string, string>;
  /** The variants cell of each row as JSON (undefined: not an array). */
  variants: Map<number, unknown[] | undefined>;
  /** SKUs (by their lower case) that products left out of the file hold, as written there. */
  heldSkus: Map<string, string>;
  /** sanitizeDescription, once per distinct text of the file (catalogues repeat their descriptions). */
  sanitize: (html: string) => ReturnType<typeof sanitizeDescription>;
}

/** One row's outcome: the product as it will be, and what is written for it. */
interface Plan {
  row: number;
  isNew: boolean;
  product: ProductWrite;
  /** The product is new, or a field or a variant of it changes: its row is written and it counts. */
  changed: boolean;
  /** The variants to write (stored ids updated in place); undefined: they are left as they are. */
  variants?: VariantWrite[];
  /** The SKUs the product has once imported. */
  skus: string[];
}

const categoryKey = (cell: string) => cleanText(cell).toLowerCase();

/** The variants cell as JSON: '' is none; anything but an array is refused (undefined). */
function parseVariants(cell: string): unknown[] | undefined {
  if (cell.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(cell);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Every SKU a variants cell names (trimmed, lower-case), valid or not. */
function skusNamed(list: unknown[] | undefined): string[] {
  return (list ?? []).flatMap((v) => {
    const sku = (v as { sku?: unknown } | null)?.sku;
    return typeof sku === 'string' && sku.trim() ? [sku.trim().toLowerCase()] : [];
  });
}

async function loadContext(db: Db, rows: CsvRow[]): Promise<Context> {
  const slugs = [...new Set(rows.map((r) => r.cells.slug.trim()).filter(Boolean))];
  const found = await repo.bySlugs(db, slugs);
  const stored = byProduct(
    await repo.variantsOf(
      db,
      found.map((p) => p.id),
    ),
  );
  const bySlug = new Map<string, Current>();
  for (const p of found) {
    const own = stored.get(p.id) ?? [];
    bySlug.set(p.slug, { row: p, variants: own, cells: cellsOf(p, own) });
  }
  const variants = new Map(rows.map((r) => [r.row, parseVariants(r.cells.variants)]));
  // the file's own products are replaced by their rows: only products left out of it still hold their SKUs
  const inFile = new Set(found.map((p) => p.id));
  const heldSkus = new Map<string, string>();
  for (const h of await repo.skuHolders(db, [...new Set([...variants.values()].flatMap(skusNamed))]))
    if (!inFile.has(h.productId)) heldSkus.set(h.sku.toLowerCase(), h.sku);
  const names = [...new Set(rows.map((r) => categoryKey(r.cells.category)).filter(Boolean))];
  const sanitized = new Map<string, ReturnType<typeof sanitizeDescription>>();
  return {
    bySlug,
    formerSlugs: await repo.formerSlugs(
      db,
      slugs.filter((s) => !bySlug.has(s)),
    ),
    categories: await productsAdminRepository.categoriesByName(db, names),
    variants,
    heldSkus,
    sanitize: (html) => {
      let clean = sanitized.get(html);
      if (!clean) sanitized.set(html, (clean = sanitizeDescription(html)));
      return clean;
    },
  };
}

/**
 * Which stored variant each variant of the row is, so order items keep pointing at theirs: the same name
 * first, then the same SKU (a renamed variant), then the one at the same position; else a new variant.
 */
function matchVariants(list: VariantInput[], stored: VariantRow[]): (string | undefined)[] {
  const free = new Set(stored.map((v) => v.id));
  const ids: (string | undefined)[] = list.map(() => undefined);
  const pass = (same: (v: VariantInput, s: VariantRow, i: number) => boolean) =>
    list.forEach((v, i) => {
      if (ids[i]) return;
      const hit = stored.find((s) => free.has(s.id) && same(v, s, i));
      if (hit) {
        ids[i] = hit.id;
        free.delete(hit.id);
      }
    });
  pass((v, s) => cleanText(v.name, 64) === s.name);
  pass((v, s) => {
    const sku = cleanText(v.sku ?? '', SKU_MAX).toLowerCase();
    return sku !== '' && sku === s.sku.toLowerCase();
  });
  pass((_v, s, i) => stored[i] === s);
  return ids;
}

function sameVariants(next: VariantWrite[], stored: VariantRow[]): boolean {
  return (
    next.length === stored.length &&
    next.every((v, i) => {
      const s = stored[i]!;
      return (
        v.id === s.id &&
        v.name === s.name &&
        v.src === s.src &&
        v.priceCents === s.priceCents &&
        v.position === s.position &&
        v.countInStock === s.countInStock &&
        v.sku === s.sku
      );
    })
  );
}

/** The cells of a row that are fields of the product (the slug is its key, the variants go apart). */
const PRODUCT_FIELDS = PRODUCT_CSV_COLUMNS.filter(
  (c) => c !== '_id' && c !== 'slug' && c !== 'variants' && c !== 'status',
);

function emptyProduct(slug: string): ProductWrite {
  return {
    id: newId(),
    slug,
    name: '',
    brand: '',
    categoryId: null,
    priceCents: 0,
    countInStock: 0,
    purchaseLink: '',
    shippingMethod: '',
    image: '',
    video: '',
    description: '',
    descriptionText: '',
    status: 'active',
  };
}

function withoutCategoryName(row: CsvProductRow): ProductWrite {
  const { categoryName: _, ...product } = row;
  return product;
}

/** A zod issue of the row's fields, as a person reads it (variants by their number). */
function issueMessage(issue: { path: PropertyKey[]; message: string }): string {
  const [field, index] = issue.path;
  return field === 'colorsVariants' && typeof index === 'number'
    ? `Variant ${index + 1}: ${issue.message}`
    : issue.message;
}

/** For a product already there: its variants cell differs from its export, so its variants are rewritten. */
const variantsGiven = (r: CsvRow, current: Current | undefined) =>
  current !== undefined && r.cells.variants !== current.cells.variants;

/**
 * One row against the editor's rules. A new slug needs every field; for a product already there only
 * the cells that differ from its export are taken (as the editor sends only what changed), so a file
 * just exported changes nothing, and an unchanged row is not written at all.
 */
function planRow(r: CsvRow, ctx: Context): Plan | string[] {
  const { row, cells } = r;
  const slug = cells.slug.trim();
  const current = ctx.bySlug.get(slug);
  if (!current) {
    if (!slug) return [CSV_IMPORT_MESSAGES.slugRequired];
    if (slug.length > SLUG_MAX || !SLUG_RE.test(slug)) return [CSV_IMPORT_MESSAGES.slug];
    if (ctx.formerSlugs.has(slug)) return [CSV_IMPORT_MESSAGES.slugFormer(slug)];
  }
  const given = (c: Column) => !current || cells[c] !== current.cells[c];
  const input: Record<string, unknown> = {};
  for (const c of PRODUCT_FIELDS) if (given(c)) input[c] = cells[c];
  const errors: string[] = [];
  if (given('variants')) {
    const list = ctx.variants.get(row);
    if (list) input.colorsVariants = list;
    else errors.push(CSV_IMPORT_MESSAGES.variants);
  }
  // an empty status cell: a new product is active, a known one keeps its status
  const statusCell = cells.status.trim();
  if (statusCell !== '' && statusCell !== 'draft' && statusCell !== 'active') errors.push(CSV_IMPORT_MESSAGES.status);
  const status = statusCell === 'draft' || statusCell === 'active' ? statusCell : undefined;
  if (status !== undefined && status !== current?.row.status) input.status = status;
  const storedSkus = () => current!.variants.map((v) => v.sku).filter(Boolean);
  if (errors.length === 0 && Object.keys(input).length === 0)
    return { row, isNew: false, product: withoutCategoryName(current!.row), changed: false, skus: storedSkus() };

  const checked = productUpdateSchema.safeParse(input);
  if (!checked.success) errors.push(...checked.error.issues.map(issueMessage));
  if (errors.length || !checked.success) return errors;
  const data: ProductUpdateInput = checked.data;

  const product: ProductWrite = current ? withoutCategoryName(current.row) : emptyProduct(slug);
  let variants: VariantWrite[] | undefined;
  try {
    Object.assign(product, productColumns({ ...data, category: undefined, description: undefined }));
    if (data.status !== undefined) product.status = data.status;
    // a row that publishes a product (a new one marked active, or a draft made active) meets the editor's rule
    if (data.status === 'active') {
      const problem = publishProblem(product.name, product.priceCents);
      if (problem) return [problem];
    }
    if (data.description !== undefined) Object.assign(product, ctx.sanitize(data.description));
    if (data.category !== undefined) {
      const name = cleanText(data.category ?? '');
      const same = current?.row.categoryName?.toLowerCase() === name.toLowerCase();
      const id = !name ? null : same ? current!.row.categoryId : ctx.categories.get(name.toLowerCase());
      if (id === undefined) return [CSV_IMPORT_MESSAGES.categoryNotFound(name)];
      product.categoryId = id;
    }
    if (data.colorsVariants) {
      // an id in the file names nothing: variants are matched to the stored ones
      const list = data.colorsVariants.map(({ _id, ...v }) => v);
      const stored = current?.variants ?? [];
      const ids = matchVariants(list, stored);
      variants = variantValues(list.map((v, i) => ({ ...v, _id: ids[i] }))).map((v, position) => {
        const old = stored.find((s) => s.id === v.id);
        return {
          id: v.id ?? newId(),
          productId: product.id,
          name: v.name,
          src: v.src,
          priceCents: v.priceCents,
          position,
          // left out of the cell: a matched variant keeps its stock and SKU
          countInStock: v.countInStock !== undefined ? v.countInStock : (old?.countInStock ?? null),
          sku: v.sku ?? old?.sku ?? '',
        };
      });
    }
  } catch (err) {
    if (err instanceof BadRequestError) return [err.message];
    throw err;
  }
  const before = current ? withoutCategoryName(current.row) : undefined;
  const changed =
    !before ||
    (variants !== undefined && !sameVariants(variants, current!.variants)) ||
    (Object.keys(product) as (keyof ProductWrite)[]).some((k) => product[k] !== before[k]);
  // a new product without variants has none to write
  if (!current && variants?.length === 0) variants = undefined;
  const skus = variants ? variants.map((v) => v.sku).filter(Boolean) : current ? storedSkus() : [];
  return { row, isNew: !current, product, changed, variants, skus };
}

/** Each slug once per file: the later rows of a repeated slug are refused. */
function repeatedSlugs(rows: CsvRow[]): RowError[] {
  const first = new Map<string, number>();
  const errors: RowError[] = [];
  for (const { row, cells } of rows) {
    const slug = cells.slug.trim();
    if (!slug) continue;
    const seen = first.get(slug);
    if (seen === undefined) first.set(slug, row);
    else errors.push({ row, message: CSV_IMPORT_MESSAGES.slugRepeated(slug, seen) });
  }
  return errors;
}

/** A SKU once per file (whatever its case), and none a product left out of the file holds. */
function skuErrors(plan: Plan, ctx: Context, seen: Map<string, number>): string[] {
  const errors: string[] = [];
  for (const sku of plan.skus) {
    const key = sku.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) errors.push(CSV_IMPORT_MESSAGES.skuRepeated(sku, first));
    else seen.set(key, plan.row);
    const holder = ctx.heldSkus.get(key);
    if (holder) errors.push(PRODUCT_MESSAGES.skuTaken(holder));
  }
  return errors;
}

// ---- import: writing ---------------------------------------------------------------------------

/** Writes one batch of checked rows in the import's transaction: products by slug, then their variants. */
async function writeBatch(tx: Tx, plans: Plan[]): Promise<void> {
  const rows = plans.filter((p) => p.changed).map((p) => p.product);
  const written = new Map((await repo.upsertProducts(tx, rows)).map((r) => [r.slug, r.id]));
  // a slug another writer created since the check belongs to another product than planned
  if (rows.some((p) => written.get(p.slug) !== p.id)) throw new ConflictError(CSV_IMPORT_MESSAGES.changedMeanwhile);
  const rewritten = plans.filter((p) => p.variants);
  await repo.deleteVariantsExcept(
    tx,
    rewritten.filter((p) => !p.isNew).map((p) => p.product.id),
    rewritten.flatMap((p) => p.variants!.map((v) => v.id)),
  );
  await repo.upsertVariants(
    tx,
    rewritten.flatMap((p) => p.variants!),
  );
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Checks every row in file order (the editor's rules, then SKUs across rows), collecting what is refused
 * into `errors`; each full batch of rows to write goes to `sink`. Yields to the event loop now and then,
 * so progress polls and other requests go on meanwhile.
 */
async function checkRows(
  rows: CsvRow[],
  ctx: Context,
  errors: RowError[],
  progress: ImportProgress,
  sink: (plans: Plan[]) => void,
): Promise<ImportResult> {
  const counts = { created: 0, updated: 0 };
  const skus = new Map<string, number>();
  let batch: Plan[] = [];
  for (const [i, r] of rows.entries()) {
    const plan = planRow(r, ctx);
    const refused = Array.isArray(plan) ? plan : skuErrors(plan, ctx, skus);
    errors.push(...refused.map((message) => ({ row: r.row, message })));
    if (!Array.isArray(plan) && refused.length === 0) {
      if (plan.changed) counts[plan.isNew ? 'created' : 'updated']++;
      if (plan.changed || plan.variants) batch.push(plan);
    }
    if (batch.length === BATCH) {
      sink(batch);
      batch = [];
    }
    if ((i + 1) % CHECK_SLICE === 0) {
      progress.done = i + 1;
      await nextTurn();
    }
  }
  sink(batch);
  return counts;
}

/**
 * Writes batches of checked rows in file order on the import's transaction, each as soon as it is handed
 * over; the SKUs of the file's products whose variants are rewritten step aside first, so SKUs may move
 * between them. A failed statement ends the writing: it is thrown by `finish`.
 */
function batchWriter(tx: Tx, progress: ImportProgress, skusMoving: string[]) {
  let planned = 0;
  let written = 0;
  let chain = repo.clearSkus(tx, skusMoving);
  return {
    add(batch: Plan[]) {
      planned += batch.length;
      chain = chain.then(async () => {
        await writeBatch(tx, batch);
        written += batch.length;
        if (progress.phase === 'writing') progress.done = written;
      });
      // a failure is answered by finish (or dropped with the transaction by settle), never left unhandled
      chain.catch(() => undefined);
    },
    /** Every batch handed over, written; the progress counts the rows written. */
    async finish() {
      Object.assign(progress, { phase: 'writing', done: written, total: planned });
      await chain;
    },
    /** Waits for the statements in flight, so that none runs after the transaction is rolled back. */
    settle: () =>
      chain.then(
        () => undefined,
        () => undefined,
      ),
  };
}

/**
 * POST /api/products/import: every row is checked against the editor's rules and the rules across rows;
 * any bad row refuses the whole file (400 listing each, nothing written). One transaction creates the
 * product of each new slug and updates the product of each known one, 500 rows a statement; rows that
 * change nothing are not written.
 *
 * With `overlap` (PostgreSQL), the transaction is opened first and each batch is written while the rows
 * after it are still being checked, so the database's work and this process's run side by side: a
 * 10,000-row file took about a third less time on two cores. A bad row found after some batches were
 * written stops the writing and rolls the transaction back, so the file is still all or nothing. Without
 * it (the embedded database, which runs on this thread and has one connection), every row is checked
 * before the transaction begins, so other requests are served meanwhile.
 */
export async function importProducts(
  db: Db,
  bytes: Buffer,
  progress: ImportProgress,
  { overlap }: { overlap: boolean },
): Promise<ImportResult> {
  const { rows, errors } = readRows(bytes);
  Object.assign(progress, { phase: 'checking', done: 0, total: rows.length });
  const ctx = await loadContext(db, rows);
  errors.push(...repeatedSlugs(rows));
  const skusMoving = rows.flatMap((r) => {
    const current = ctx.bySlug.get(r.cells.slug.trim());
    return variantsGiven(r, current) ? [current!.row.id] : [];
  });
  const check = (sink: (batch: Plan[]) => void) => checkRows(rows, ctx, errors, progress, sink);
  const refused = () => new ImportRowsError(errors.sort((a, b) => a.row - b.row).slice(0, MAX_ROW_ERRORS));
  const transaction = (write: (tx: Tx) => Promise<ImportResult>) =>
    db.transaction(write).catch((err: unknown) => {
      // a slug or SKU another writer took, or a category deleted, since the check: nothing was written
      if (uniqueViolation(err) || pgErrorOf(err)?.code === '23503')
        throw new ConflictError(CSV_IMPORT_MESSAGES.changedMeanwhile);
      throw err;
    });

  if (overlap)
    return transaction(async (tx) => {
      const writer = batchWriter(tx, progress, skusMoving);
      const counts = await check((batch) => {
        if (errors.length === 0) writer.add(batch);
      }).catch(async (err: unknown) => {
        await writer.settle();
        throw err;
      });
      if (errors.length) {
        await writer.settle();
        throw refused();
      }
      await writer.finish();
      return counts;
    });

  const batches: Plan[][] = [];
  const counts = await check((batch) => batches.push(batch));
  if (errors.length) throw refused();
  return transaction(async (tx) => {
    const writer = batchWriter(tx, progress, skusMoving);
    for (const batch of batches) writer.add(batch);
    await writer.finish();
    return counts;
  });
}

// ---- import: progress --------------------------------------------------------------------------

/**
 * The progress of the imports running in this process, by the id the client named (`?job=`). A finished
 * job is kept a minute for the last polls, then forgotten. The map lives in one process: with several
 * processes behind a load balancer, a poll may reach another one and get 404; the web app then shows
 * only the upload's own progress.
 */
export class ImportJobs {
  private readonly jobs = new Map<string, ImportProgress>();

  constructor(private readonly keepMs = 60_000) {}

  /** A new progress, listed under `id` when the client named one (409 while a job of that id runs). */
  start(id: string | undefined): ImportProgress {
    const progress: ImportProgress = { phase: 'reading', done: 0, total: 0 };
    if (id === undefined) return progress;
    const running = this.jobs.get(id);
    if (running && running.phase !== 'done' && running.phase !== 'failed')
      throw new ConflictError(CSV_IMPORT_MESSAGES.jobRunning);
    this.jobs.set(id, progress);
    return progress;
  }

  finish(id: string | undefined, progress: ImportProgress, ok: boolean): void {
    progress.phase = ok ? 'done' : 'failed';
    if (ok) progress.done = progress.total;
    if (id === undefined) return;
    setTimeout(() => {
      if (this.jobs.get(id) === progress) this.jobs.delete(id);
    }, this.keepMs).unref();
  }

  get(id: string): ImportProgress {
    const progress = this.jobs.get(id);
    if (!progress) throw new NotFoundError(CSV_IMPORT_MESSAGES.jobNotFound);
    return { ...progress };
  }
}
