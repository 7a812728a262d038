import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './smtp.ts';

/**
 * A PostgreSQL server of one test's own, in a temporary directory on a free port, which the test may
 * stop, restart and freeze: the machine's own server (5432) serves other suites at the same time and
 * is never touched. PostgreSQL refuses to run as root, so under root (CI) it runs as the `postgres`
 * OS user through runuser, in a directory that user owns.
 */
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivatePostgres {
  port: number;
  /** A database URL of this server (superuser `root`, no password). */
  url(database?: string): string;
  start(): Promise<void>;
  /** Stops the server: `fast` ends every session at once (in-flight queries fail), as a restart does. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Freezes (SIGSTOP) or thaws (SIGCONT) every process of the server: a database that stops answering. */
  freeze(): void;
  thaw(): void;
  /** Stops it (if running) and removes its directory. */
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'store-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  // asynchronous: the test's own requests keep flowing while the server stops and starts
  const run = async (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, tool), ...args]]
      : [path.join(BIN, tool), args];
    await promisify(execFile)(cmd, argv, { cwd: root, timeout: 60_000 });
  };
  const data = path.join(root, 'data');
  const port = await freePort();
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'root', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${root}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=60',
  ].join(' ');
  const running = () => existsSync(path.join(data, 'postmaster.pid'));

  /** The postmaster and every process it started (backends, background workers). */
  const pids = (): number[] => {
    const main = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          // field 4 of /proc/<pid>/stat is the parent (after the command name in parentheses)
          const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === main;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [main, ...children];
  };

  const server: PrivatePostgres = {
    port,
    url: (database = 'postgres') => `postgres://root@127.0.0.1:${port}/${database}`,
    start: () => run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(root, 'log'), '-w', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']),
    freeze: () => pids().forEach((pid) => process.kill(pid, 'SIGSTOP')),
    thaw: () => pids().forEach((pid) => process.kill(pid, 'SIGCONT')),
    async destroy() {
      if (running()) {
        try {
          server.thaw();
          await server.stop('immediate');
        } catch {
          /* already gone */
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** Runs one statement on a private server (CREATE DATABASE and the like). */
export async function queryOn(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
