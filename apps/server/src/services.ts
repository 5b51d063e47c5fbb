import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { createRateLimiter } from './http/rate-limit';
import { createLogEmailAdapter } from './integrations/email/log-adapter';
import { createOutbox } from './integrations/email/outbox';
import type { EmailPort } from './integrations/email/port';
import { createSmtpEmailAdapter } from './integrations/email/smtp-adapter';
import { createAuthService } from './modules/auth/auth.service';
import { createHomepageService } from './modules/homepage/homepage.service';
import { createKeysService } from './modules/keys/keys.service';

/** Adapters a caller may swap (tests use the same config-driven choice; this only lets them observe). */
export interface Adapters {
  email?: EmailPort;
}

/** Wires every service from config, the database and the adapters config selects. */
export function createServices(config: Config, db: Db, log: FastifyBaseLogger, adapters: Adapters = {}) {
  const email =
    adapters.email ??
    (config.email.smtpUrl
      ? createSmtpEmailAdapter(config.email.smtpUrl, config.email.from)
      : createLogEmailAdapter(log));
  const outbox = createOutbox(db, email, log);
  const { max, windowMs } = config.authRateLimit;
  const addKey = config.addKeyRateLimit;
  const limits = {
    authByIp: createRateLimiter({ max: max * 3, windowMs }),
    authByEmail: createRateLimiter({ max, windowMs }),
    signupByIp: createRateLimiter({ max: max * 3, windowMs }),
    addKeyByUser: createRateLimiter({ max: addKey.maxPerUser, windowMs: addKey.windowMs }),
    addKeyByIp: createRateLimiter({ max: addKey.maxPerIp, windowMs: addKey.windowMs }),
  };
  const publicUrl = () =>
    config.publicUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  return {
    db,
    outbox,
    limits,
    auth: createAuthService({ db, outbox, publicUrl, limits: { byIp: limits.authByIp, byEmail: limits.authByEmail } }),
    keys: createKeysService({ db, addKeyLimits: { byUser: limits.addKeyByUser, byIp: limits.addKeyByIp } }),
    homepage: createHomepageService({ db }),
  };
}
export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
