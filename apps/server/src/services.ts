import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import { createRateLimiter } from './http/rate-limit';
import { createLogEmailAdapter } from './integrations/email/log-adapter';
import { createOutbox } from './integrations/email/outbox';
import type { EmailPort } from './integrations/email/port';
import { createSmtpEmailAdapter } from './integrations/email/smtp-adapter';
import { createLocalStorageAdapter } from './integrations/storage/local-adapter';
import type { StoragePort } from './integrations/storage/port';
import { createS3StorageAdapter } from './integrations/storage/s3-adapter';
import { createAuthService } from './modules/auth/auth.service';
import { createHomepageService } from './modules/homepage/homepage.service';
import { createConnectService } from './modules/connect/connect.service';
import type { ThemeTokenSigner } from './modules/connect/theme-token';
import { createKeysService } from './modules/keys/keys.service';
import { createDownloadLinks } from './modules/releases/download-link';
import { loadDownloadLinkSecret } from './modules/releases/download-link-secret';
import { createReleasesService } from './modules/releases/releases.service';

/** Adapters a caller may swap (tests use the same config-driven choice; this only lets them observe). */
export interface Adapters {
  email?: EmailPort;
  storage?: StoragePort;
}

/** Wires every service from config, the database and the adapters config selects. */
export interface Runtime {
  /** Signs theme auth tokens (created asynchronously before the services, see app.ts). */
  signer: ThemeTokenSigner;
  /** The port the server listens on, once it does (PORT=0 picks one): used for absolute links without PUBLIC_URL. */
  listeningPort: () => number | null;
}

export function createServices(
  config: Config,
  db: Db,
  log: FastifyBaseLogger,
  runtime: Runtime,
  adapters: Adapters = {},
) {
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
    downloads: createRateLimiter({
      ...config.downloads.rateLimit,
      message: 'Too many downloads. Please wait a few minutes and try again.',
    }),
  };
  const publicUrl = () =>
    config.publicUrl ??
    `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${runtime.listeningPort() ?? config.port}`;
  const keys = createKeysService({ db, addKeyLimits: { byUser: limits.addKeyByUser, byIp: limits.addKeyByIp } });
  const connect = createConnectService({ db, keys, signer: runtime.signer });
  const storage =
    adapters.storage ??
    (config.storage.kind === 's3'
      ? createS3StorageAdapter(config.storage)
      : createLocalStorageAdapter(config.storage.dir));
  const releases = createReleasesService({
    db,
    storage,
    keys,
    links: createDownloadLinks({
      secret: loadDownloadLinkSecret({ configured: config.downloads.linkSecret, dataDir: config.dataDir }),
      publicUrl,
    }),
    themeTokens: { verifySignature: (token) => connect.verifySignature(token) },
    downloadLimit: limits.downloads,
    maxZipBytes: config.releases.maxBytes,
  });
  return {
    db,
    outbox,
    limits,
    auth: createAuthService({ db, outbox, publicUrl, limits: { byIp: limits.authByIp, byEmail: limits.authByEmail } }),
    keys,
    homepage: createHomepageService({ db }),
    publicUrl,
    storage,
    releases,
    connect,
    /** Verifies a theme auth token: signed by us and still the key's current token. */
    themeTokens: { verify: connect.verify },
  };
}
export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
