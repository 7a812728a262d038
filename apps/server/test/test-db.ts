import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

/** Shared names between global setup (template) and each test file (copies). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');
export const PGLITE_TEMPLATE = path.join(ROOT, '.test-data', 'pglite-template.bin');

export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.STORE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('STORE_TEST_DB=postgres needs TEST_DATABASE_URL');
  return url;
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export const templateName = () => `store_tpl_${process.env.STORE_TEST_RUN ?? 'x'}`;

export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export const randomDbName = () => `store_t_${randomBytes(6).toString('hex')}`;
