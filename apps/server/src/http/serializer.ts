import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';

export const serializerCompiler: FastifySerializerCompiler<$ZodType> = (routeSchema) => {
  try {
    const { $schema: _d, ...json } = toJSONSchema(routeSchema.schema, {
      io: 'output',
      target: 'draft-7',
      unrepresentable: 'throw',
    }) as Record<string, unknown>;
    return fastJsonStringify(json as never) as (data: unknown) => string;
  } catch {
    return zodSerializerCompiler(routeSchema as never);
  }
};
