import { describe, expect, it } from 'vitest';
import { banner } from './banner.ts';
import { loadConfig } from './config.ts';

const base = { DATA_DIR: '/tmp/store-banner-test', JWT_SECRET: 'x'.repeat(40) };
const admin = { email: 'admin@example.com', password: 'demo-pass-1', source: 'demo' as const };

describe('the start-up lines', () => {
  it('name PUBLIC_URL, the address e-mail links use, so the browser opened is the same site', () => {
    const text = banner(loadConfig(base), 'pglite', admin, 1.23);
    // the e-mail links' address comes first; where the server listens (127.0.0.1) is added after it
    expect(text).toContain('Store is running at http://localhost:3000  (pglite, ready in 1.2 s)');
    expect(text).toContain('API docs: http://localhost:3000/api/docs');
    expect(text).toContain('Listening on http://127.0.0.1:3000');
    expect(text.indexOf('localhost:3000')).toBeLessThan(text.indexOf('127.0.0.1'));
    const sameSite = banner(loadConfig({ ...base, HOST: '0.0.0.0' }), 'pglite', admin, 1);
    expect(sameSite).not.toContain('Listening on');
    expect(text).toContain('Admin sign-in: admin@example.com / demo-pass-1');
  });

  it('add where the server listens when PUBLIC_URL is another address', () => {
    const text = banner(loadConfig({ ...base, PUBLIC_URL: 'https://shop.example.com' }), 'postgres', undefined, 2);
    expect(text).toContain('Store is running at https://shop.example.com  (postgres, ready in 2.0 s)');
    expect(text).toContain('Listening on http://127.0.0.1:3000');
    expect(text).toContain('API docs: https://shop.example.com/api/docs');
  });
});
