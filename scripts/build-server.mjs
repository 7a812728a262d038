#!/usr/bin/env node
// Bundles the server into apps/server/dist (what `npm start` runs with plain `node`): our own code and the
// shared package in one file (and the catalogue build's worker thread in another), every npm package left
// to node_modules. Running the TypeScript through tsx costs each process about 70 MB more resident memory
// (its loader, the transform cache and the source maps); see docs/decisions/014-production-runs-a-bundled-server.md.
// The migrations are copied beside the bundle, where the database client looks for them. `node scripts/build-server.mjs [outdir]`: another folder (a test
// run's own) must sit two levels under the repository like apps/server/dist, so that the bundle finds
// node_modules and the web app's build where dist/main.js does.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'apps/server');

/** Bundles the server into `out` (emptied first); answers the path of its main.js. */
export async function buildServer(out = path.join(server, 'dist')) {
  rmSync(out, { recursive: true, force: true });
  await build({
    // the catalogue's index builds run in worker threads of their own (modules/catalog/background-builds.ts)
    entryPoints: {
      main: path.join(server, 'src/main.ts'),
      'catalog-build.worker': path.join(server, 'src/modules/catalog/catalog-build.worker.ts'),
    },
    outdir: out,
    bundle: true,
    // the cluster primary loads the app only in the workers (a dynamic import, its own chunk)
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-stay-external',
        setup(b) {
          // bare specifiers are npm packages (and node: built-ins), except our own workspace package
          b.onResolve({ filter: /^[^.#/]/ }, (args) =>
            args.path.startsWith('@store/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  cpSync(path.join(server, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
  return path.join(out, 'main.js');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = Date.now();
  const out = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const main = await buildServer(out);
  console.log(`server bundled into ${path.relative(root, path.dirname(main))} in ${Date.now() - started} ms`);
}
