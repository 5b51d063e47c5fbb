import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { getPublicConfig } from '@keyport/shared/contracts/public-config';
import * as systemContracts from '@keyport/shared/contracts/system';
import type { Config } from './config';
import type { Db } from './db/client';
import { AppError } from './http/errors';
import { registerRoute } from './http/route';
import { authRoutes } from './modules/auth/auth.routes';
import { homepageRoutes } from './modules/homepage/homepage.routes';
import { keysRoutes } from './modules/keys/keys.routes';
import { releasesRoutes } from './modules/releases/releases.routes';
import { staffRoutes } from './modules/staff/staff.routes';
import { createServices, type Adapters } from './services';
import { connectRoutes } from './modules/connect/connect.routes';
import { createThemeTokenSigner } from './modules/connect/theme-token';

export const BODY_LIMIT_BYTES = 1024 * 1024;
const SPA_PATHS = /^\/(?:$|login$|signup$|forgot-password$|reset-password$|customer(?:\/|$))/;

export interface BuildOptions {
  db: Db;
  adapters?: Adapters;
  /** Where the JSON logs go (standard output by default). */
  logDestination?: NodeJS.WritableStream;
}

/** The whole server as one Fastify instance. server.ts listens on it; tests `inject` into it. */
export async function buildApp(config: Config, options: BuildOptions): Promise<FastifyInstance> {
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
        req: (req) => ({ method: req.method, url: req.url.split('?')[0], remoteAddress: req.ip }),
      },
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const signer = await createThemeTokenSigner({ privateJwk: config.tokenSigningKey, dataDir: config.dataDir });
  const listeningPort = () => {
    const address = app.server.address();
    return address && typeof address === 'object' ? address.port : null;
  };
  app.decorate('services', createServices(config, options.db, app.log, { signer, listeningPort }, options.adapters));
  app.decorateRequest('user', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ error: describeValidationError(error) });
    }
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, body too large, unsupported content type, rate limit.
      return reply.code(status).send({ error: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });

  await app.register(helmet, {
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
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      error: `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Keyport API', version: '1.0.0', description: 'License keys, stores, tokens and downloads.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <session token>' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());

  registerRoute(app, systemContracts.health, async () => {
    await options.db.execute(sql`select 1`);
    return { status: 'ok' as const };
  });
  registerRoute(app, getPublicConfig, async () => ({ links: config.links }));
  await app.register(authRoutes);
  await app.register(keysRoutes);
  await app.register(staffRoutes);
  await app.register(homepageRoutes);
  await app.register(releasesRoutes, {
    uploadDir: path.join(config.dataDir, 'tmp'),
    maxZipBytes: config.releases.maxBytes,
  });
  await app.register(connectRoutes);

  const webDist = resolveWebDist(config);
  if (webDist) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      wildcard: true,
      setHeaders: (res, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`))
          res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (webDist && request.method === 'GET' && SPA_PATHS.test(pathname)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ error: `Not found: ${request.method} ${pathname}` });
  });

  app.addHook('onReady', async () => {
    void app.services.outbox.flush();
  });
  return app;
}

/** The first problem's message, as the contract words it (e.g. 'Please enter a license key to import.'). */
/**
 * The contracts carry the spec's exact texts ('Please enter a license key to import.'): those are answered as they
 * are. zod's own generic messages ('Invalid input: expected string…') get the field name in front.
 */
function describeValidationError(error: FastifyError): string {
  const first = error.validation?.[0];
  const message = first?.message;
  if (!first || !message) return 'Invalid request';
  if (!/^(Invalid|Too (big|small)|Unrecognized|Expected)/.test(message)) return message;
  const field = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const where = field || (error.validationContext === 'querystring' ? 'query' : error.validationContext) || 'request';
  return `${where}: ${message}`;
}

function resolveWebDist(config: Config): string | null {
  const candidate = config.webDistDir ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  return fs.existsSync(path.join(candidate, 'index.html')) ? candidate : null;
}
