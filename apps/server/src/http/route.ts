import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod/mini';
import { globalRegistry } from 'zod/v4/core';
import {
  ErrorSchema,
  type Contract,
  type ParsedBodyOf,
  type ParsedParamsOf,
  type ParsedQueryOf,
  type ResponseOf,
} from '@keyport/shared/contracts/define';
import type { AuthUser } from './auth';
import { authenticate } from './auth';
import { isStaff } from '@keyport/shared/domain/roles';
import { forbidden } from './errors';

export interface RouteInput<C extends Contract> {
  body: ParsedBodyOf<C>;
  query: ParsedQueryOf<C>;
  params: ParsedParamsOf<C>;
  /** The signed-in user; present on every route whose contract is not public. */
  user: C['access'] extends 'public' ? AuthUser | null : AuthUser;
}

/**
 * What a handler answers: the contract's response, or for a file route (`produces`) the file as a stream or a buffer.
 * A file route sets its own status and headers on `reply`; no handler calls `reply.send`.
 */
export type HandlerResult<C extends Contract> = C extends { produces: string } ? Readable | Buffer : ResponseOf<C>;

export type RouteHandler<C extends Contract> = (
  input: RouteInput<C>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<HandlerResult<C>>;

type RouteExtras = Pick<RouteOptions, 'config' | 'bodyLimit' | 'logLevel' | 'onRequest' | 'childLoggerFactory'> & {
  /**
   * 'ignored': a public route that never looks at a session, even when the request carries one (the license
   * validation, called by storefronts without cookies: ADR 031). By default a public route reads the session if any.
   */
  session?: 'ignored';
};

/**
 * Declares a route from its shared contract: the contract's schemas validate the request and the response,
 * feed the OpenAPI document, and its access level decides the authentication check.
 */
export function registerRoute<C extends Contract>(
  app: FastifyInstance,
  contract: C,
  handler: RouteHandler<C>,
  { session, ...extras }: RouteExtras = {},
): void {
  const status = contract.status ?? 200;
  const ignoresSession = contract.access === 'public' && session === 'ignored';
  app.route({
    method: contract.method,
    url: contract.path,
    ...extras,
    // A JSON answer gets the API's security headers, a file (zip, PDF, HTML page) a document's (http/security-headers.ts).
    // CORS is off unless the route opens it (`config.cors`, http/cors.ts): `false` is @fastify/cors's per-route off
    // switch, which spares every other request its options merge (issue 22, ADR 048).
    config: { securityHeaders: contract.produces ? 'document' : 'json', cors: false, ...extras.config },
    schema: {
      operationId: contract.operationId,
      summary: contract.summary,
      tags: [...contract.tags],
      // Public routes say so (an empty requirement), signed-in ones name the session scheme.
      security: contract.access === 'public' ? [] : [{ session: [] }],
      ...(contract.body ? { body: contract.body } : {}),
      ...(contract.query ? { querystring: contract.query } : {}),
      ...(contract.params ? { params: contract.params } : {}),
      ...(contract.multipartBody ? { [MULTIPART_BODY]: contract.multipartBody } : {}),
      response: { [status]: successResponse(contract, status), '4xx': ERROR_RESPONSE },
    },
    // Authentication runs before validation: a caller without access learns nothing about the body's rules.
    preValidation: ignoresSession
      ? []
      : async (request) => {
          if (contract.access === 'public') {
            request.user = await authenticate(request, { required: false });
            return;
          }
          const user = await authenticate(request, { required: true });
          if (contract.access === 'staff' && !isStaff(user)) throw forbidden();
        },
    handler: async (request, reply) => {
      const input = {
        body: request.body,
        query: request.query,
        params: request.params,
        user: request.user,
      } as RouteInput<C>;
      const result = await handler(input, request, reply);
      // Returned, never sent here: Fastify sends what an async handler returns exactly once (a stream is piped).
      // Sending and then returning the reply made Fastify wait on the reply and, when a client hung up mid-stream,
      // send a second time (a false 500 in the logs).
      if (!contract.produces) reply.code(status);
      return status === 204 ? undefined : result;
    },
  });
}

/** The schema key under which a contract's multipart body travels to the OpenAPI transform (app.ts), and only there. */
export const MULTIPART_BODY = 'x-keyport-multipart-body';

const ERROR_RESPONSE = ErrorSchema.register(globalRegistry, {
  description: 'An error: `error` for people, `code` for programs',
});
const NO_CONTENT = z.null().register(globalRegistry, { description: 'No content' });
const FILE_SCHEMAS = {
  'application/zip': z
    .string()
    .register(globalRegistry, { description: 'A theme zip', contentMediaType: 'application/zip' }),
  'application/pdf': z
    .string()
    .register(globalRegistry, { description: 'A PDF document', contentMediaType: 'application/pdf' }),
  'text/html': z.string().register(globalRegistry, { description: 'An HTML page', contentMediaType: 'text/html' }),
} as const;

/** The success response as Fastify and the OpenAPI document see it: JSON, no content (204) or a file. */
function successResponse(contract: Contract, status: number) {
  if (contract.produces) {
    // Streamed: Fastify never serializes it; the schema documents the file.
    return { description: 'The file', content: { [contract.produces]: { schema: FILE_SCHEMAS[contract.produces] } } };
  }
  if (status === 204 || !contract.response) return NO_CONTENT;
  return contract.response;
}
