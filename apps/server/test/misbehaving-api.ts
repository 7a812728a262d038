import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How a stand-in answers one request. */
export type Behaviour =
  /** Never answers (the request hangs until the client gives up). */
  | { hang: true }
  /** Sends the status line, headers and part of a JSON body, then nothing more. */
  | { stall: true }
  /** Answers `body` as it is (any text: HTML, truncated JSON, JSON of the wrong shape). */
  | { status: number; body: string; type?: string };

export const json = (body: unknown, status = 200): Behaviour => ({ status, body: JSON.stringify(body) });

/**
 * A local HTTP stand-in for an outside API that can misbehave as real ones do: hang, stop mid-answer,
 * answer garbage. `handle` picks the behaviour per request (by path, query or body).
 */
export async function misbehavingApi(handle: (url: URL, method: string, body: string) => Behaviour) {
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const b = handle(new URL(req.url ?? '/', 'http://stand-in'), req.method ?? 'GET', body);
      if ('hang' in b) return void open.add(res);
      if ('stall' in b) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"id":"');
        return void open.add(res);
      }
      res.writeHead(b.status, { 'content-type': b.type ?? 'application/json' });
      res.end(b.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
