import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll } from 'vitest';

/**
 * Real server processes, started the way an operator starts them (`npm start` runs the bundle
 * dist/main.js), talking HTTP. Each test file bundles the current source into a folder of its own first.
 */
export const serverDir = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];
const bundleDir = path.join(serverDir, `dist-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
let bundled = false;
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

/** The bundle's main.js, built once per test file (about half a second). */
function serverBundle(): string {
  if (!bundled) {
    const r = spawnSync(process.execPath, ['../../scripts/build-server.mjs', bundleDir], {
      cwd: serverDir,
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`bundling the server failed: ${r.stdout}${r.stderr}`);
    bundled = true;
  }
  return path.join(bundleDir, 'main.js');
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [serverBundle()], {
    cwd: serverDir,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Waits until `path` answers 2xx; answers how long that took. Fails when the process exits first. */
export async function waitForHealth(
  port: number,
  started: Started,
  { path: probe = '/api/health', timeoutMs = 100_000 } = {},
): Promise<number> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (started.child.exitCode !== null) throw new Error(`server exited: ${started.output()}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}${probe}`);
      if (res.ok) return Date.now() - t0;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer on port ${port}: ${started.output()}`);
}

export async function stop(s: Started, signal: NodeJS.Signals = 'SIGTERM') {
  s.child.kill(signal);
  return s.exited;
}

/** For afterAll: no test leaves a server behind. */
export function killAll() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
}

/** Runs one of the operator scripts (src/ops/*-cli.ts) to the end. */
export function runCli(script: string, args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A bearer header for a user, signed with the JWT_SECRET the server process was given. */
export async function bearerFor(secret: string, user: { id: string; tokenVersion: number }) {
  const token = await new SignJWT({ ver: user.tokenVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
}
