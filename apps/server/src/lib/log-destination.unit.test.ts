import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const module = path.join(import.meta.dirname, 'log-destination.ts');

/** A process logging through bufferedStdout: `script` runs with `log(line)` and `close()` in scope. */
function run(script: string, flushMs = 100) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { bufferedStdout } from ${JSON.stringify(module)};
       const out = bufferedStdout(${flushMs});
       const log = (line) => out.stream.write(line + '\\n');
       ${script}`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const seen: { at: number; text: string }[] = [];
  const t0 = Date.now();
  child.stdout.on('data', (chunk: Buffer) => seen.push({ at: Date.now() - t0, text: chunk.toString() }));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { seen, exited, all: () => seen.map((s) => s.text).join('') };
}

describe('the log written to standard output in chunks', () => {
  it('writes every line of a busy moment, the last ones at exit, in order', async () => {
    const p = run(`for (let i = 0; i < 5000; i++) log('line ' + i); process.exit(0);`);
    expect(await p.exited).toBe(0);
    const lines = p.all().trimEnd().split('\n');
    expect(lines).toEqual(Array.from({ length: 5000 }, (_, i) => `line ${i}`));
  });

  it('writes a lone line within the flush interval, long before the process ends', async () => {
    const p = run(`setTimeout(() => log('started'), 200); setTimeout(() => process.exit(0), 4000);`);
    await expect.poll(() => p.all(), { timeout: 3500, interval: 20 }).toContain('started');
    expect(p.seen[0]!.at).toBeLessThan(3000);
    await p.exited;
  });

  it('writes what is waiting when closed, without waiting for the next flush', async () => {
    // flushed once a minute: only close() can write the line before the process ends 3 s later
    const p = run(`log('last words'); out.close(); setTimeout(() => {}, 3000);`, 60_000);
    await expect.poll(() => p.all(), { timeout: 2500, interval: 10 }).toBe('last words\n');
    await p.exited;
  });
});
