import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_RATE_LIMITS, loadConfig, type Limit } from './config.ts';

const base = { DATA_DIR: '/tmp/store-config-test', JWT_SECRET: 'x'.repeat(40) };

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      seedDemo: true,
      databaseUrl: undefined,
    });
    expect(c.captcha.provider).toBe('altcha');
    expect(c.paypal.apiBase).toBe('https://api-m.sandbox.paypal.com');
  });
  it('makes PUBLIC_URL default to http://localhost:PORT, the address start-up prints first', () => {
    expect(loadConfig({ ...base, PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ ...base, PUBLIC_URL: 'https://shop.example.com/' }).publicUrl).toBe('https://shop.example.com');
  });
  it('names the variable that holds a bad value', () => {
    expect(() => loadConfig({ ...base, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ...base, CAPTCHA_PROVIDER: 'hcaptcha' })).toThrow(/CAPTCHA_PROVIDER/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
  });
  it('runs repeated statements prepared unless DB_PREPARED_STATEMENTS=false', () => {
    expect(loadConfig(base).preparedStatements).toBe(true);
    expect(loadConfig({ ...base, DB_PREPARED_STATEMENTS: 'false' }).preparedStatements).toBe(false);
    expect(loadConfig({ ...base, DB_PREPARED_STATEMENTS: 'true' }).preparedStatements).toBe(true);
    expect(() => loadConfig({ ...base, DB_PREPARED_STATEMENTS: 'maybe' })).toThrow(/DB_PREPARED_STATEMENTS/);
  });
  it('takes SLOW_QUERY_PLAN_MS as a whole number of ms, off when unset', () => {
    expect(loadConfig(base).slowQueryPlanMs).toBeUndefined();
    const pg = { ...base, DATABASE_URL: 'postgres://root@127.0.0.1:5432/shop' };
    expect(loadConfig({ ...pg, SLOW_QUERY_PLAN_MS: '250' }).slowQueryPlanMs).toBe(250);
    expect(loadConfig({ ...pg, SLOW_QUERY_PLAN_MS: '0' }).slowQueryPlanMs).toBe(0);
    expect(loadConfig({ ...pg, SLOW_QUERY_PLAN_MS: '' }).slowQueryPlanMs).toBeUndefined();
    expect(loadConfig({ ...pg, SLOW_QUERY_PLAN_MS: '250' }).warnings).toEqual([]);
    for (const value of ['-1', '2.5', 'fast', '1e12'])
      expect(() => loadConfig({ ...pg, SLOW_QUERY_PLAN_MS: value }), value).toThrow(/SLOW_QUERY_PLAN_MS/);
    // the embedded database has no auto_explain: allowed, and said at start
    expect(loadConfig({ ...base, SLOW_QUERY_PLAN_MS: '100' }).warnings).toEqual([
      expect.stringMatching(/^SLOW_QUERY_PLAN_MS needs DATABASE_URL/),
    ]);
  });
  it('refuses unsafe settings in production', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', CAPTCHA_PROVIDER: 'none' })).toThrow(/CAPTCHA_PROVIDER/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', CAPTCHA_DIFFICULTY: 'low' })).toThrow(
      /CAPTCHA_DIFFICULTY/,
    );
    expect(() => loadConfig({ ...base, JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });
  it('refuses TRUST_PROXY that trusts every proxy in production, saying what to set instead', () => {
    for (const value of ['true', '0.0.0.0/0', '::/0', '10.0.0.0/8, 0.0.0.0/0']) {
      let message = '';
      try {
        loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message, value).toMatch(/^Invalid configuration:\n {2}TRUST_PROXY: /m);
      expect(message).toMatch(/any client can forge X-Forwarded-For/);
      expect(message).toMatch(/TRUST_PROXY=1\b/);
      expect(message).toMatch(/TRUST_PROXY=10\.0\.0\.0\/8/);
    }
    for (const value of ['1', '2', '10.0.0.0/8', '10.0.0.2,192.168.0.0/16', 'loopback', 'false'])
      expect(() => loadConfig({ ...base, NODE_ENV: 'production', TRUST_PROXY: value }), value).not.toThrow();
  });
  it('warns about TRUST_PROXY that trusts every proxy outside production', () => {
    const c = loadConfig({ ...base, TRUST_PROXY: 'true' });
    expect(c.trustProxy).toBe(true);
    expect(c.warnings).toEqual([expect.stringMatching(/^TRUST_PROXY=true trusts every proxy: any client can forge/)]);
    expect(loadConfig({ ...base, TRUST_PROXY: '0.0.0.0/0' }).warnings).toHaveLength(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).warnings).toEqual([]);
    expect(loadConfig(base).warnings).toEqual([]);
  });
  it('refuses a TRUST_PROXY that is neither a hop count nor addresses', () => {
    for (const value of ['yes', '10.0.0.300', '10.0.0.0/33', 'balancer.internal', '-1'])
      expect(() => loadConfig({ ...base, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY: /);
  });
  it('does not seed the demo catalogue into a PostgreSQL database unless asked', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://a@b/c' }).seedDemo).toBe(false);
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://a@b/c', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });
  it('takes the rate limits from one table, each a thousand times higher under NODE_ENV=test', () => {
    expect(loadConfig(base).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).rateLimits).toEqual(DEFAULT_RATE_LIMITS);
    const relaxed = loadConfig({ ...base, NODE_ENV: 'test' }).rateLimits as unknown as Record<
      string,
      Record<string, Limit>
    >;
    for (const [name, keyed] of Object.entries(DEFAULT_RATE_LIMITS))
      for (const [key, limit] of Object.entries(keyed as Record<string, Limit>))
        expect(relaxed[name]?.[key], `${name}.${key}`).toEqual({ max: limit.max * 1000, windowMs: limit.windowMs });
  });
});
