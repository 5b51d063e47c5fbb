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
import { forbidden } from './errors';

export interface RouteInput<C extends Contract> {
  body: ParsedBodyOf<C>;
  query: ParsedQueryOf<C>;
  params: ParsedParamsOf<C>;
  /** The signed-in user; present on every route whose contract is not public. */
  user: C['access'] extends 'public' ? AuthUser | null : AuthUser;
}

export type RouteHandler<C extends Contract> = (
  input: RouteInput<C>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<ResponseOf<C> | FastifyReply>;

type RouteExtras = Pick<RouteOptions, 'config' | 'bodyLimit'>;

/**
 * Declares a route from its shared contract: the contract's schemas validate the request and the response,
 * feed the OpenAPI document, and its access level decides the authentication check.
 */
export function registerRoute<C extends Contract>(
  app: FastifyInstance,
  contract: C,
  handler: RouteHandler<C>,
  extras: RouteExtras = {},
): void {
  const status = contract.status ?? 200;
  app.route({
    method: contract.method,
    url: contract.path,
    ...extras,
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
    preValidation: async (request) => {
      if (contract.access === 'public') {
        request.user = await authenticate(request, { required: false });
        return;
      }
      const user = await authenticate(request, { required: true });
      if (contract.access === 'staff' && user.role !== 'staff') throw forbidden();
    },
    handler: async (request, reply) => {
      const input = {
        body: request.body,
        query: request.query,
        params: request.params,
        user: request.user,
      } as RouteInput<C>;
      const result = await handler(input, request, reply);
      // A handler that streams a file sends it itself and returns the reply.
      if (reply.sent || result === reply) return reply;
      reply.code(status);
      return status === 204 ? reply.send() : reply.send(result);
    },
  });
}

/** The schema key under which a contract's multipart body travels to the OpenAPI transform (app.ts), and only there. */
export const MULTIPART_BODY = 'x-keyport-multipart-body';

const ERROR_RESPONSE = ErrorSchema.register(globalRegistry, {
  description: 'An error: `error` for people, `code` for programs',
});
const NO_CONTENT = z.null().register(globalRegistry, { description: 'No content' });
const ZIP_FILE = z
  .string()
  .register(globalRegistry, { description: 'A theme zip', contentMediaType: 'application/zip' });

/** The success response as Fastify and the OpenAPI document see it: JSON, no content (204) or a file. */
function successResponse(contract: Contract, status: number) {
  if (contract.produces) {
    // Streamed: Fastify never serializes it; the schema documents the file.
    return { description: 'The file', content: { [contract.produces]: { schema: ZIP_FILE } } };
  }
  if (status === 204 || !contract.response) return NO_CONTENT;
  return contract.response;
}
