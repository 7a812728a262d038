import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_WORKER } from '../accounts.ts';
import { createTestApp, type TestContext } from '../helpers.ts';

/**
 * Errors Fastify and Node's HTTP server answer before any route runs (an over-long or badly encoded URL,
 * headers too large, a request the HTTP parser cannot read, a request while the server shuts down) have the
 * shape of every other error answer: JSON `{ message, code }`, nothing else, and never the request echoed back.
 */

/** One HTTP exchange over a raw socket: what the server wrote before closing (or going quiet). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let out = '';
    const quiet = setTimeout(() => socket.destroy(), 3_000);
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(quiet);
      resolve(out);
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(request));
  });
}

/** The status, headers and JSON body of the first answer in a raw HTTP exchange. */
function parse(answer: string) {
  const [head = '', ...rest] = answer.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers['content-length'] ?? 0);
  const body = rest.join('\r\n\r\n').slice(0, length);
  return { status: Number(statusLine.split(' ')[1]), headers, body: body ? (JSON.parse(body) as unknown) : body };
}

describe('framework-level errors answer { message, code } like every other error', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({}, NO_WORKER);
  });
  afterAll(async () => t?.close());

  it('answers a path parameter over the router limit with 414 { message: "URL is too long" }', async () => {
    for (const url of [`/api/products/${'x'.repeat(600)}`, `/api/users/${'7'.repeat(501)}`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(414);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'URL is too long', code: 'URI_TOO_LONG' });
    }
  });

  it('answers a badly encoded URL with 400 { message: "Malformed URL" }, without echoing it', async () => {
    for (const url of ['/api/products/%E0%A4%A', '/api/products/%', '/api/orders/%zz/pay', '/api/products/%ED%A0']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Malformed URL', code: 'BAD_REQUEST' });
    }
  });

  it('keeps the security headers and the request id on those answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/products/${'x'.repeat(600)}` });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('on a listening server', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    it('answers a too-long path parameter with 414 { message } over HTTP too', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/products/${'x'.repeat(600)}`);
      expect(res.status).toBe(414);
      expect(await res.json()).toEqual({ message: 'URL is too long', code: 'URI_TOO_LONG' });
    });

    it('answers a URL longer than the HTTP header limit with 414 { message: "URL is too long" }', async () => {
      const res = parse(await raw(port, `GET /api/products?keyword=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`));
      expect(res.status).toBe(414);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: 'URL is too long', code: 'URI_TOO_LONG' });
    });

    it('answers headers over the limit with 431 { message: "Request headers are too large" }', async () => {
      const res = parse(
        await raw(port, `GET /api/products HTTP/1.1\r\nHost: a\r\nX-Padding: ${'x'.repeat(20_000)}\r\n\r\n`),
      );
      expect(res.status).toBe(431);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: 'Request headers are too large', code: 'HEADERS_TOO_LARGE' });
    });

    it('answers what the HTTP parser cannot read with 400 { message: "Bad request" }', async () => {
      for (const request of [
        'GET /api/products HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n',
        'GET /api/products HTTP/9.1\r\nHost: a\r\n\r\n',
        'BREW /api/products HTTP/1.1\r\nHost: a\r\n\r\n',
        'POST /api/users/login HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ]) {
        const res = parse(await raw(port, request));
        expect(res.status, request).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({ message: 'Bad request', code: 'BAD_REQUEST' });
      }
    });

    it('answers an HTTP/1.1 request without a Host header with 400 { message }', async () => {
      const res = parse(await raw(port, 'GET /api/products HTTP/1.1\r\nConnection: close\r\n\r\n'));
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: 'Host header is required', code: 'BAD_REQUEST' });
    });

    it('answers an expectation it cannot meet with 417 { message }', async () => {
      const res = parse(
        await raw(port, 'GET /api/products HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n'),
      );
      expect(res.status).toBe(417);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: 'Only Expect: 100-continue is supported', code: 'BAD_REQUEST' });
    });
  });
});

describe('a request that arrives while the server shuts down', () => {
  it('is answered 503 { message: "Server is shutting down" }', async () => {
    const t = await createTestApp({}, NO_WORKER);
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as net.AddressInfo;
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'x' });
      const head = `POST /api/users/login HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      // the first request is in flight (half its body sent) when the shutdown starts; the second,
      // pipelined behind it on the same connection, arrives during the shutdown
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d.toString('latin1')));
      const ended = new Promise((r) => socket.on('close', r));
      await new Promise((r) => socket.on('connect', r));
      socket.write(head + body.slice(0, 5));
      await new Promise((r) => setTimeout(r, 100));
      const closed = t.app.close();
      await new Promise((r) => setTimeout(r, 50));
      socket.write(body.slice(5) + 'GET /api/products HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
      await ended;
      await closed;
      const answers = out.split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(answers, out).toHaveLength(2);
      const second = parse(answers[1]!);
      expect(second.status).toBe(503);
      expect(second.headers['content-type']).toMatch(/^application\/json/);
      expect(second.body).toEqual({ message: 'Server is shutting down', code: 'SERVICE_UNAVAILABLE' });
    } finally {
      await t.close();
    }
  });
});
