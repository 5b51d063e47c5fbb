import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError, serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { toJSONSchema, type $ZodType } from 'zod/v4/core';

type JsonSchema = { [key: string]: unknown };

const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false });

/**
 * How every response body is written. A contract's response schema that JSON Schema can express exactly is compiled
 * once into a validator (Ajv) and a writer (fast-json-stringify): the body must match the schema, as with zod
 * (a mismatch is a 500 `FST_ERR_RESPONSE_SERIALIZATION`), and only the schema's properties are written, as zod
 * strips unknown keys. On `GET /keys/` this is about 8× cheaper than zod's encode and JSON.stringify
 * (docs/performance.md). Schemas JSON Schema cannot express exactly (dates, transforms, string formats) keep zod.
 */
export const serializerCompiler: FastifySerializerCompiler<$ZodType> = (routeSchema) => {
  const compiled = compiledFor(routeSchema.schema);
  if (!compiled) return zodSerializerCompiler(routeSchema as Parameters<typeof zodSerializerCompiler>[0]);
  const { validate, write } = compiled;
  const { method, url } = routeSchema;
  return (data: unknown) => {
    if (!validate(data)) {
      // The same error zod's serializer throws (answered as a 500); the cause names the field, never its value.
      throw new ResponseSerializationError(method, url, { cause: ajvCause(validate.errors) });
    }
    return write(data);
  };
};

interface Compiled {
  validate: ValidateFunction;
  write: (data: unknown) => string;
}

/**
 * Each contract schema (a module-level zod object) compiled once per process, however many apps are built from the
 * contracts (the test suites build hundreds; compiling every route's validator and writer was a fifth of their CPU).
 * `null`: the schema stays with zod.
 */
const compiledSchemas = new WeakMap<$ZodType, Compiled | null>();

function compiledFor(zodSchema: $ZodType): Compiled | null {
  let compiled = compiledSchemas.get(zodSchema);
  if (compiled === undefined) {
    const json = exactJsonSchema(zodSchema);
    // Unknown keys pass the check and are not written (fast-json-stringify writes only the schema's properties).
    const schema = json && (allowingUnknownKeys(json) as JsonSchema);
    compiled = schema && {
      validate: ajv.compile(schema),
      write: fastJsonStringify(schema as unknown as Parameters<typeof fastJsonStringify>[0]),
    };
    compiledSchemas.set(zodSchema, compiled);
  }
  return compiled;
}

/** Ajv's message names the failing field and rule ("data/0/id must be integer"), never a value. */
function ajvCause(errors: ErrorObject[] | null | undefined) {
  type Cause = ConstructorParameters<typeof ResponseSerializationError>[2]['cause'];
  return new Error(ajv.errorsText(errors)) as unknown as Cause;
}

/** The schema as JSON Schema (draft-07), or null when it holds anything JSON Schema would only approximate. */
export function exactJsonSchema(schema: $ZodType): JsonSchema | null {
  let json: JsonSchema;
  try {
    json = toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw', cycles: 'throw' });
  } catch {
    return null;
  }
  if (hasKeyword(json, 'format')) return null;
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

function hasKeyword(value: unknown, keyword: string): boolean {
  if (Array.isArray(value)) return value.some((item) => hasKeyword(item, keyword));
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, item]) => key === keyword || hasKeyword(item, keyword));
}

/** Without `additionalProperties: false`: an extra key is not an error, and it is left out, as zod strips it. */
function allowingUnknownKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(allowingUnknownKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, item]) => !(key === 'additionalProperties' && item === false))
      .map(([key, item]) => [key, allowingUnknownKeys(item)]),
  );
}
