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
  ])('stops on %o with a message naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}:`));
  });
});
