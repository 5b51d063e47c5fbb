import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

describe('config', () => {
  it('has working defaults: port 3000, PGlite in ./data, seeding on', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toMatchObject({ kind: 'pglite' });
    expect(config.dataDir.endsWith('data')).toBe(true);
    expect(config.seed).toBe(true);
  });

  it('limits adding keys to 10 attempts per user and 30 per IP in 15 minutes, unless configured', () => {
    expect(loadConfig({}).addKeyRateLimit).toEqual({ maxPerUser: 10, maxPerIp: 30, windowMs: 900_000 });
    expect(
      loadConfig({
        ADD_KEY_RATE_LIMIT_MAX: '3',
        ADD_KEY_RATE_LIMIT_MAX_PER_IP: '9',
        ADD_KEY_RATE_LIMIT_WINDOW_SECONDS: '60',
      }).addKeyRateLimit,
    ).toEqual({ maxPerUser: 3, maxPerIp: 9, windowMs: 60_000 });
  });

  it('has no setup-guide video unless SETUP_GUIDE_VIDEO_URL is set (empty counts as unset)', () => {
    expect(loadConfig({}).links.setupGuideVideoUrl).toBeNull();
    expect(loadConfig({ SETUP_GUIDE_VIDEO_URL: '' }).links.setupGuideVideoUrl).toBeNull();
    expect(loadConfig({ SETUP_GUIDE_VIDEO_URL: 'https://player.vimeo.com/video/1' }).links.setupGuideVideoUrl).toBe(
      'https://player.vimeo.com/video/1',
    );
    expect(() => loadConfig({ SETUP_GUIDE_VIDEO_URL: 'not a url' })).toThrow(/SETUP_GUIDE_VIDEO_URL/);
  });

  it('keeps shared state in memory and runs one process unless REDIS_URL and WORKERS say otherwise', () => {
    expect(loadConfig({}).sharedState).toEqual({ kind: 'memory' });
    expect(loadConfig({}).workers).toBe(1);
    const scaled = loadConfig({ DATABASE_URL: 'postgres://u@db/k', REDIS_URL: 'redis://cache:6379', WORKERS: '4' });
    expect(scaled.sharedState).toEqual({ kind: 'redis', url: 'redis://cache:6379', keyPrefix: 'keyport:' });
    expect(scaled.workers).toBe(4);
    expect(loadConfig({ REDIS_URL: 'rediss://cache', REDIS_KEY_PREFIX: 'shop-a:' }).sharedState).toMatchObject({
      keyPrefix: 'shop-a:',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://cache' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
  });

  it('refuses several workers on the embedded database or without Redis, naming why', () => {
    expect(() => loadConfig({ WORKERS: '2', REDIS_URL: 'redis://cache' })).toThrow(
      /WORKERS: 2 workers need DATABASE_URL.*lose data/,
    );
    expect(() => loadConfig({ WORKERS: '2', DATABASE_URL: 'postgres://u@db/k' })).toThrow(
      /WORKERS: 2 workers need REDIS_URL/,
    );
    expect(() => loadConfig({ WORKERS: '2', REDIS_URL: 'redis://cache' })).toThrow(ConfigError);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@localhost/db',
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SEED: 'maybe' }, 'SEED'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ ADD_KEY_RATE_LIMIT_MAX: '0' }, 'ADD_KEY_RATE_LIMIT_MAX'],
    [{ ADD_KEY_RATE_LIMIT_MAX_PER_IP: 'lots' }, 'ADD_KEY_RATE_LIMIT_MAX_PER_IP'],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }, 'STRIPE_PUBLISHABLE_KEY'],
    [{ STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, 'STRIPE_SECRET_KEY'],
    [{ STRIPE_SECRET_KEY: 'not-a-key' }, 'STRIPE_SECRET_KEY'],
    [
      { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_a' },
      'STRIPE_PUBLISHABLE_KEY',
    ],
    [{ VIES_ADAPTER: 'soap' }, 'VIES_ADAPTER'],
    [{ SELLER_VAT_ID: '12345' }, 'SELLER_VAT_ID'],
  ])('stops on %o with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
  });

  it('payments and VIES default to the offline sandboxes; Stripe needs all three keys', () => {
    expect(loadConfig({}).payments).toEqual({ kind: 'sandbox' });
    expect(loadConfig({}).vies).toEqual({ kind: 'sandbox' });
    expect(
      loadConfig({
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      }).payments,
    ).toEqual({
      kind: 'stripe',
      secretKey: 'sk_test_abc',
      publishableKey: 'pk_test_abc',
      webhookSecret: 'whsec_abc',
      apiBase: null,
    });
    expect(loadConfig({ VIES_ADAPTER: 'vies', SELLER_VAT_ID: 'ie6388047v' })).toMatchObject({
      vies: { kind: 'vies', baseUrl: 'https://ec.europa.eu/taxation_customs/vies/rest-api', timeoutMs: 8000 },
      sellerVatId: 'IE6388047V',
    });
  });
});
