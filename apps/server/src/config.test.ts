import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
  it('names the variable that holds a bad value', () => {
    expect(() => loadConfig({ ...base, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ ...base, CAPTCHA_PROVIDER: 'hcaptcha' })).toThrow(/CAPTCHA_PROVIDER/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'not a url' })).toThrow(ConfigError);
  });
  it('refuses unsafe settings in production', () => {
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', CAPTCHA_PROVIDER: 'none' })).toThrow(/CAPTCHA_PROVIDER/);
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', CAPTCHA_DIFFICULTY: 'low' })).toThrow(
      /CAPTCHA_DIFFICULTY/,
    );
    expect(() => loadConfig({ ...base, JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
  });
  it('does not seed the demo catalogue into a PostgreSQL database unless asked', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://a@b/c' }).seedDemo).toBe(false);
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://a@b/c', SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });
});
