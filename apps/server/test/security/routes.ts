import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * The server's own route list. buildApp creates its Fastify instance inside, so a test file wraps the
 * `fastify` factory (vi.mock('fastify', …wrapFastify)) and every instance records its routes through an
 * onRoute hook added before any plugin registers one:
 *
 *   vi.mock('fastify', async (importOriginal) => (await import('./routes.ts')).wrapFastify(await importOriginal()));
 */
const registry = new WeakMap<object, { method: string; url: string }[]>();

/** Log lines of apps built with a logger, while `capture.on` (the log-redaction test reads them). */
export const capture = { on: false, lines: [] as string[] };

export function wrapFastify<M extends { default: unknown }>(mod: M): M {
  const original = mod.default as (opts?: unknown) => FastifyInstance;
  const wrapped = Object.assign((opts?: { logger?: unknown }) => {
    if (capture.on && opts && typeof opts.logger === 'object' && opts.logger) {
      const sink = { write: (line: string) => void capture.lines.push(line) };
      opts = { ...opts, logger: { ...opts.logger, stream: sink } };
    }
    const app = original(opts);
    const list: { method: string; url: string }[] = [];
    registry.set(app, list);
    app.addHook('onRoute', (r: RouteOptions) => {
      for (const method of [r.method].flat()) list.push({ method, url: r.url });
    });
    return app;
  }, original);
  return { ...mod, default: wrapped, fastify: wrapped };
}

/** `METHOD /path` of every route the app serves (HEAD mirrors GET and is left out), sorted. */
export function routesOf(app: FastifyInstance): string[] {
  const list = registry.get(app);
  if (!list) throw new Error("no route list: the test file must vi.mock('fastify') with wrapFastify");
  return [...new Set(list.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`))].sort();
}

/** A built web app of one page (with an inline script and JSON-LD mark), so the page routes exist in tests. */
export const INLINE_SCRIPT = 'window.__boot = 1;';
export function tinyWebDist(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'store-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><!--app-head--><script>${INLINE_SCRIPT}</script>` +
      `<script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>`,
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
