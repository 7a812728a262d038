import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API = 'http://localhost:3000';
const gz = promisify(gzip);
const br = promisify(brotliCompress);

/** Writes .gz and .br copies of text assets next to them; the server sends them as they are (preCompressed). */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'store:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => /\.(js|css|svg|json|txt|map)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const data = await readFile(full);
          if (data.length < 1024) return;
          await writeFile(`${full}.gz`, await gz(data, { level: 9 }));
          await writeFile(
            `${full}.br`,
            await br(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length } }),
          );
        }),
      );
    },
  };
}

// Vendor code changes less often than ours: its own chunks stay cached across releases. Only
// libraries whose whole used part serves the storefront shell are grouped; the rest (react-bootstrap
// parts, dompurify…) is split by use, so what only a lazy page needs never loads with the home page.
const vendorGroups = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  { name: 'router', test: /node_modules[\\/]react-router[\\/]/, priority: 20 },
  { name: 'vendor', test: /node_modules[\\/](@tanstack|zustand)[\\/]/, priority: 10 },
];

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API, changeOrigin: true },
      '/uploads': { target: API, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // @store/shared is pure (constants, rules, zod schemas): what the app does not use, like the
      // schemas the storefront never touches, is dropped instead of pulling zod into the home page.
      treeshake: { moduleSideEffects: [{ test: /[\\/]packages[\\/]shared[\\/]src[\\/]/, sideEffects: false }] },
      output: {
        codeSplitting: { groups: vendorGroups },
      },
    },
  },
});
