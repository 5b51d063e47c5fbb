import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';
import { sql } from 'drizzle-orm';
import { getPublicConfig } from '@keyport/shared/contracts/public-config';
import * as systemContracts from '@keyport/shared/contracts/system';
import type { Config } from './config';
import type { Db } from './db/client';
import { AccessLogController } from './http/access-log';
import { createLazyChildLoggerFactory } from './http/lazy-child-logger';
import { registerJsonCompression } from './http/compression';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnavailable } from './http/database-unavailable';
import { AppError } from './http/errors';
import { serializeError, serializeRequest } from './http/log-serializers';
import { RequestValidationError, validatorCompiler } from './http/validation';
import { serializerCompiler } from './http/serialization';
import { registerCors } from './http/cors';
import { registerSecurityHeaders } from './http/security-headers';
import { MULTIPART_BODY, registerRoute } from './http/route';
import { redirectRootTo, registerStaticAssets, sendIndexHtml, serveAppForPageNavigations } from './http/static-assets';
import { serveDashboardWithFirstData } from './http/first-data';
import { authRoutes } from './modules/auth/auth.routes';
import { homepageRoutes } from './modules/homepage/homepage.routes';
import { keysRoutes } from './modules/keys/keys.routes';
import { releasesRoutes } from './modules/releases/releases.routes';
import { themeFileUpdatesRoutes } from './modules/theme-file-updates/theme-file-updates.routes';
import { customersAdminRoutes } from './modules/customers-admin/customers-admin.routes';
import { createServices, type Adapters } from './services';
import { billingRoutes } from './modules/billing/billing.routes';
import { paymentsRoutes } from './modules/payments/payments.routes';
import { invoicesRoutes } from './modules/invoices/invoices.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { upgradesRoutes } from './modules/upgrades/upgrades.routes';
import { creditPacksRoutes } from './modules/credits/credit-packs.routes';
import { connectRoutes } from './modules/connect/connect.routes';
import { createThemeTokenSigner } from './modules/connect/theme-token';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { creditsRoutes } from './modules/credits/credits.routes';
import { licensesRoutes } from './modules/licenses/licenses.routes';
import { jobsRoutes } from './modules/jobs/jobs.routes';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const SPA_PATHS = /^\/(?:login$|signup$|forgot-password$|reset-password$|customer(?:\/|$))/;
/** Where the root sends every client (issue 21): the web app's keys dashboard. */
const KEYS_DASHBOARD_PATH = '/customer/my-keys';
/** The staff console's pages (issue 12): under the staff API's prefix, told apart by what the request accepts. */
const STAFF_CONSOLE_PATHS = /^\/staff(?:\/|$)/;

export interface BuildOptions {
  db: Db;
  adapters?: Adapters;
  /** Where the JSON logs go (standard output by default). */
  logDestination?: DestinationStream;
}

/** The whole server as one Fastify instance. server.ts listens on it; tests `inject` into it. */
export async function buildApp(config: Config, options: BuildOptions): Promise<FastifyInstance> {
  const accessLog = new AccessLogController();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(options.logDestination ? { stream: options.logDestination } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
        censor: '[redacted]',
      },
      serializers: {
        // The query string can hold a reset token: log the path only.
        req: serializeRequest,
        // SQL parameters and the values PostgreSQL echoes never reach the logs.
        err: serializeError,
      },
    },
    // One access-log line per request, written when it is over (http/access-log.ts).
    logController: accessLog,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  accessLog.useLogger(app.log);
  // A request's child logger is made only when the request logs something (http/lazy-child-logger.ts, ADR 047).
  app.setChildLoggerFactory(createLazyChildLoggerFactory());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const signer = await createThemeTokenSigner({ privateJwk: config.tokenSigningKey, dataDir: config.dataDir });
  const listeningPort = () => {
    const address = app.server.address();
    return address && typeof address === 'object' ? address.port : null;
  };
  // The sandbox payment provider delivers its signed events here: through the webhook route, as Stripe's arrive.
  const deliverWebhook = async (rawBody: string, signatureHeader: string) => {
    const response = await app.inject({
      method: 'POST',
      url: '/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signatureHeader },
      payload: rawBody,
    });
    return { statusCode: response.statusCode };
  };
  // The sandbox wallet's events likewise, through PayPal's webhook route.
  const deliverPaypalWebhook = async (rawBody: string, headers: Record<string, string>) => {
    const response = await app.inject({ method: 'POST', url: '/paypal/webhook', headers, payload: rawBody });
    return { statusCode: response.statusCode };
  };
  app.decorate(
    'services',
    createServices(
      config,
      options.db,
      app.log,
      { signer, listeningPort, deliverWebhook, deliverPaypalWebhook },
      options.adapters,
    ),
  );
  app.decorateRequest('user', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RequestValidationError) {
      return reply.code(400).send({ error: error.message, code: error.code });
    }
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message, code: error.code });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported content type.
      return reply.code(status).send({ error: error.message, code: fastifyClientErrorCode(error, status) });
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL restarting or out of reach: the pool reconnects on its own; the client tries again shortly.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ error: DATABASE_UNAVAILABLE, code: 'unavailable' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.', code: 'internal' });
  });

  registerJsonCompression(app);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        frameSrc: ["'self'", 'https://www.youtube-nocookie.com', 'https://www.youtube.com', 'https://player.vimeo.com'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  const { sharedState } = app.services;
  app.addHook('onClose', () => sharedState.close());
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    // With REDIS_URL every process counts into the same windows; the coarse global limit lets requests through while
    // Redis is unreachable (the per-action limits refuse them instead).
    ...(sharedState.redis
      ? { redis: sharedState.redis, nameSpace: `${sharedState.keyPrefix}global:`, skipOnError: true }
      : {}),
    // Thrown by the plugin, then answered by the error handler above like every other AppError.
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new AppError(
        429,
        `Too many requests. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
        'rate_limited',
        { 'retry-after': String(seconds) },
      );
    },
  });
  // After the security headers and the global limit: their onRequest hooks run first, as before (http/cors.ts).
  await registerCors(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Keyport API',
        version: '1.0.0',
        description: 'License keys, stores, tokens and downloads.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicUrl ?? '/', description: 'This portal' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <session token>' },
        },
      },
    },
    transform: documentRoute,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  registerRoute(app, systemContracts.health, async () => {
    await options.db.execute(sql`select 1`);
    return { status: 'ok' as const };
  });
  registerRoute(app, getPublicConfig, async () => ({ links: config.links, sandbox: config.sandbox.noRealMoney }));
  await app.register(authRoutes);
  await app.register(keysRoutes);
  await app.register(customersAdminRoutes);
  await app.register(homepageRoutes);
  await app.register(releasesRoutes, {
    uploadDir: path.join(config.dataDir, 'tmp'),
    maxZipBytes: config.releases.maxBytes,
  });
  await app.register(connectRoutes);
  await app.register(themeFileUpdatesRoutes, {
    uploadDir: path.join(config.dataDir, 'tmp'),
    maxZipBytes: config.releases.maxBytes,
  });
  await app.register(upgradesRoutes);
  await app.register(creditPacksRoutes);
  await app.register(billingRoutes);
  await app.register(paymentsRoutes);
  await app.register(invoicesRoutes);
  await app.register(auditRoutes);
  await app.register(analyticsRoutes);
  await app.register(creditsRoutes);
  await app.register(licensesRoutes);
  await app.register(jobsRoutes);

  const webDist = resolveWebDist(config);
  if (webDist) {
    await registerStaticAssets(app, webDist);
    redirectRootTo(app, KEYS_DASHBOARD_PATH);
    serveDashboardWithFirstData(app, webDist, KEYS_DASHBOARD_PATH);
    serveAppForPageNavigations(app, STAFF_CONSOLE_PATHS);
  }

  // Unknown paths count against the global limit too (a scanner gets 429s, not an endless stream of 404s).
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (webDist && request.method === 'GET' && SPA_PATHS.test(pathname)) {
      return sendIndexHtml(reply);
    }
    return reply.code(404).send({ error: `Not found: ${request.method} ${pathname}`, code: 'not_found' });
  });

  app.addHook('onClose', async () => {
    // Running jobs finish (or give their claims back) before the database closes; waiting ones stay queued for the
    // next process that starts.
    await app.services.jobs.stop();
    // The check-ins counted since the last flush reach the database before it closes.
    await app.services.checkinFlusher.stop();
  });
  app.addHook('onReady', async () => {
    await app.services.ensureCatalogue();
    // Emails, analytics and sandbox events left waiting by an earlier process go out now.
    app.services.jobs.start();
    app.services.checkinFlusher.start();
  });
  return app;
}

/**
 * A route as the OpenAPI document shows it: the zod schemas as JSON Schema 2020-12, a multipart body (read by its
 * handler, not by Fastify) documented as multipart/form-data, and the path without a trailing slash (the spec's
 * `/keys/` is also served as `/keys`: the router ignores trailing slashes).
 */
function documentRoute(input: Parameters<typeof jsonSchemaTransform>[0]) {
  const { schema, url } = jsonSchemaTransform(input);
  const documented: Record<string, unknown> = { ...schema };
  const multipart = documented[MULTIPART_BODY] as $ZodType | undefined;
  delete documented[MULTIPART_BODY];
  if (multipart) {
    const { $schema: _dialect, ...body } = toJSONSchema(multipart, { target: 'draft-2020-12', io: 'input' });
    documented.body = body;
    documented.consumes = ['multipart/form-data'];
  }
  return { schema: documented, url: url.length > 1 ? url.replace(/\/+$/, '') : url };
}

/** A stable code for Fastify's own client errors (the message stays Fastify's). */
function fastifyClientErrorCode(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'invalid_json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    default:
      if (error instanceof SyntaxError) return 'invalid_json';
      return status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
  }
}

function resolveWebDist(config: Config): string | null {
  const candidate = config.webDistDir ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  return fs.existsSync(path.join(candidate, 'index.html')) ? candidate : null;
}
