/**
 * Seed CLI: `npm run seed -- --products 100000 [--orders N] [--reset] [--seed N] [--no-vacuum]`.
 * Uses the database of the environment (DATABASE_URL, or the embedded one in DATA_DIR); on PostgreSQL the
 * rows go in through COPY.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '#server/config.ts';
import { DataDirLockedError, openDatabase } from '../client.ts';
import { seedLarge } from './large.ts';

const USAGE = `Usage: npm run seed -- --products N [--orders N] [--reset] [--seed N] [--no-vacuum]
  --products N  add N synthetic products (with variants, reviews and shared images)
  --orders N    add N orders of 1-3 items each for synthetic shoppers (with payments and history)
  --reset       empty products and orders first (TRUNCATE ... CASCADE)
  --seed N      PRNG seed for the generated data (default 42)
  --no-vacuum   PostgreSQL: only ANALYZE the loaded tables at the end, no VACUUM
The database comes from DATABASE_URL, or the embedded one under DATA_DIR (default ./data).
On PostgreSQL the rows stream in through COPY, and tables that were empty get their indexes built after.`;

class UsageError extends Error {}

function count(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 10_000_000)
    throw new UsageError(`--${name} must be a whole number from 0 to 10000000`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      products: { type: 'string' },
      orders: { type: 'string' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      'no-vacuum': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const products = count(values.products, 'products');
  const orders = count(values.orders, 'orders');
  const seed = values.seed === undefined ? 42 : count(values.seed, 'seed');
  if (!products && !orders && !values.reset) {
    console.log(USAGE);
    process.exitCode = 1;
    return;
  }
  // the seed never signs tokens: keep loadConfig from creating a JWT secret in the data dir
  const config = loadConfig(process.env, { jwtSecret: 'not-used-by-the-seed-cli-not-used-by-the-seed-cli' });
  const started = Date.now();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 4 });
  const where = database.kind === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  console.log(`seeding ${where}`);
  try {
    const result = await seedLarge(database.db, {
      products,
      orders,
      reset: values.reset,
      seed,
      databaseUrl: database.kind === 'postgres' ? config.databaseUrl : undefined,
      vacuum: !values['no-vacuum'],
      uploadsDir: path.join(config.dataDir, 'uploads'),
      progress: (line) => console.log(`  ${line}`),
    });
    console.log(
      `done: ${result.products} products, ${result.orders} orders in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  const code = (err as { code?: string }).code ?? '';
  if (err instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) {
    console.error(`\n${(err as Error).message}\n\n${USAGE}\n`);
  } else if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`\n${(err as Error).message}\n`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
