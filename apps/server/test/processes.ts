import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SignJWT } from 'jose';

/** Real server processes, started the way an operator starts them (tsx src/main.ts), talking HTTP. */
export const serverDir = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function startServer(env: Record<string, string>): Started {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
