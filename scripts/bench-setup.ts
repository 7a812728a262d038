// Used by scripts/bench.mjs (run with `node --import tsx`) before the store starts: on the bench's
// database, creates an admin, signed-in shoppers, the products for the order bursts (one with a variant
// keeping its own last units) and a discount code limited to 50 uses, and prints
// their ids (with token versions), the catalogue's words and brand names as JSON on the last line, after
// VACUUM ANALYZE. DATABASE_URL or DATA_DIR
// pick the database.
import { htmlToText } from '@store/shared';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { coupons, productVariants, products, users } from '../apps/server/src/db/schema/index.ts';
import { BRANDS, MATERIALS, VOCABULARY } from '../apps/server/src/db/seed/large-words.ts';

const shoppers = Number(process.argv[2] ?? 200);
const database = await openDatabase({
  databaseUrl: process.env.DATABASE_URL,
  dataDir: process.env.DATA_DIR,
  poolSize: 2,
});
const db = database.db;
const tag = Date.now().toString(36);
const user = (i: number, isAdmin = false) => ({
  username: `bench_${isAdmin ? 'admin' : i}_${tag}`,
  firstName: 'Bench',
  lastName: isAdmin ? 'Admin' : `Shopper ${i}`,
  email: `bench.${isAdmin ? 'admin' : i}.${tag}@example.com`,
  isActive: true,
  isAdmin,
});
const [admin] = await db.insert(users).values(user(0, true)).returning();
const buyers = await db
  .insert(users)
  .values(Array.from({ length: shoppers }, (_, i) => user(i + 1)))
  .returning();
const product = (name: string, countInStock: number) => ({
  slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${tag}`,
  name,
  priceCents: 1000,
  countInStock,
  brand: 'Bench',
  image: '',
  description: `<p>${name}</p>`,
  descriptionText: htmlToText(`<p>${name}</p>`),
});
const [plenty, warm, ...lasts] = await db
  .insert(products)
  .values([
    product('Bench plenty', 100_000_000),
    product('Bench warm-up units', 100),
    // one product per measured burst for the last 100 units (scripts/bench.mjs --bursts, at most 9)
    ...Array.from({ length: 9 }, (_, i) => product(`Bench last units ${i + 1}`, 100)),
  ])
  .returning();
// shoppers buy many different products, as in a real shop: the orders target spreads over these
const shelf = await db
  .insert(products)
  .values(Array.from({ length: 100 }, (_, i) => product(`Bench shelf ${i}`, 100_000_000)))
  .returning();
// one variant with its own last 100 units (its product has plenty of its own), and a code for 50 orders
const [variantProduct] = await db.insert(products).values(product('Bench variant last units', 100_000)).returning();
const [blue] = await db
  .insert(productVariants)
  .values({ productId: variantProduct!.id, name: 'Blue', countInStock: 100, sku: `BENCH-BLUE-${tag}`.toUpperCase() })
  .returning();
const [coupon] = await db
  .insert(coupons)
  .values({ code: `BENCH50${tag}`.toUpperCase().slice(0, 32), type: 'percent', value: 1000, usageLimit: 50 })
  .returning();
// the planner's statistics and the visibility map (index-only scans) as autovacuum would leave them after
// the seed: a database with autovacuum off would otherwise be measured as one never vacuumed
await db.execute(sql`VACUUM ANALYZE`);
await database.close();
const who = (u: typeof admin) => ({ id: u!.id, ver: u!.tokenVersion });
// the words the synthetic catalogue is made of: what shoppers of it would type into the search box
const words = [
  ...new Set(
    [
      ...Object.values(VOCABULARY).flatMap((v) => [...v.nouns.map(([noun]) => noun), ...v.adjectives, ...v.extras]),
      ...BRANDS,
      ...MATERIALS,
    ]
      .flatMap((w) => w.toLowerCase().match(/[a-z]{3,}/g) ?? [])
      .filter((w) => !['and', 'the', 'with', 'for'].includes(w)),
  ),
];
console.log(
  JSON.stringify({
    admin: who(admin),
    buyers: buyers.map(who),
    plenty: plenty!.id,
    shelf: shelf.map((p) => p.id),
    lasts: lasts.map((p) => p.id),
    warm: warm!.id,
    variant: { product: variantProduct!.id, variant: blue!.id, coupon: coupon!.code },
    words,
    // the synthetic catalogue's brand names, spelt as stored: the brand filter matches a whole name
    brands: BRANDS,
  }),
);
