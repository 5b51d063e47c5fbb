import fc from 'fast-check';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { Ajv } from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/mini';
import type { $ZodType } from 'zod/v4/core';
import type { Contract } from '@keyport/shared/contracts/define';
import * as auth from '@keyport/shared/contracts/auth';
import * as billing from '@keyport/shared/contracts/billing';
import * as connect from '@keyport/shared/contracts/connect';
import * as homepage from '@keyport/shared/contracts/homepage';
import * as keys from '@keyport/shared/contracts/keys';
import * as payments from '@keyport/shared/contracts/payments';
import * as publicConfig from '@keyport/shared/contracts/public-config';
import * as releases from '@keyport/shared/contracts/releases';
import * as staff from '@keyport/shared/contracts/staff';
import * as system from '@keyport/shared/contracts/system';
import * as upgrades from '@keyport/shared/contracts/upgrades';
import { ErrorSchema } from '@keyport/shared/contracts/define';
import { exactJsonSchema, serializerCompiler } from '../src/http/serialization';

type Serialize = (data: unknown) => string;
type Json = { [key: string]: unknown };
const compile = (schema: $ZodType, compiler: typeof serializerCompiler = serializerCompiler) =>
  compiler({ schema, method: 'GET', url: '/test', httpStatus: '200' }) as Serialize;
const zodCompile = (schema: $ZodType) => compile(schema, zodSerializerCompiler as typeof serializerCompiler);

const isContract = (value: unknown): value is Contract =>
  typeof value === 'object' && value !== null && 'operationId' in value && 'method' in value;
const RESPONSES: [string, $ZodType][] = [
  ...[auth, billing, connect, homepage, keys, payments, publicConfig, releases, staff, system, upgrades]
    .flatMap((module) => Object.values(module).filter(isContract))
    .filter((contract) => contract.response)
    .map((contract): [string, $ZodType] => [contract.operationId, contract.response!]),
  ['error', ErrorSchema],
];
/** The responses written by the compiled writer (the others keep zod's serializer). */
const EXACT = RESPONSES.flatMap(([name, schema]): [string, $ZodType, Json][] => {
  const json = exactJsonSchema(schema);
  return json ? [[name, schema, json]] : [];
});

/** Marks an object generated for a record's schema (every key is its own: none is unknown). */
const OPEN_OBJECT = Symbol('open object');

/** Values a JSON Schema (the subset zod writes) accepts, to feed both serializers. */
function valuesOf(schema: Json): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Json[]).map(valuesOf));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Json[]).map(valuesOf));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valuesOf({ ...schema, type })));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: (schema.minimum as number) ?? -1e9, max: (schema.maximum as number) ?? 1e9 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum as number | undefined });
    case 'string':
      return fc.string({
        minLength: (schema.minLength as number) ?? 0,
        maxLength: Math.min((schema.maxLength as number) ?? 20, 20),
        unit: 'binary',
      });
    case 'array':
      return fc.array(valuesOf((schema.items as Json) ?? {}), { maxLength: 4 });
    case 'object': {
      const properties = (schema.properties as Record<string, Json>) ?? {};
      const required = new Set((schema.required as string[]) ?? []);
      const requiredKeys = Object.keys(properties).filter((key) => required.has(key));
      const values = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valuesOf(value)])),
        { requiredKeys },
      );
      // A record (`z.record`: any key, each value of one schema) takes any key: no key is unknown to it.
      const open = typeof schema.additionalProperties === 'object';
      return open ? values.map((value) => Object.defineProperty(value, OPEN_OBJECT, { value: true })) : values;
    }
    default:
      return fc.constant(null);
  }
}

/** The value with an unknown key added to every object in it (but records, whose keys are all theirs). */
function withExtraKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtraKeys);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withExtraKeys(item)]));
  return OPEN_OBJECT in value ? copy : { ...copy, auth_token: 'secret-not-in-the-contract' };
}

describe('response serialization', () => {
  it('writes the keys list exactly as zod did, without the columns the contract does not name', () => {
    const row = {
      id: 7,
      api_key: 'PR0A1-DEM0K-EY001-AURRA-PR001',
      pro: true,
      lite: false,
      linked_app_store: 'aurora-outfitters.myshopify.com',
      main_url: 'aurora-outfitters.com',
      myshopify: 'aurora-outfitters',
      secondary_url: null,
      auth_token: 'eyJhbGciOiJFZERTQSJ9.secret',
      token_version: 3,
    };
    const fast = compile(keys.getKeys.response)([row]);
    expect(fast).toBe(zodCompile(keys.getKeys.response)([row]));
    expect(fast).toBe(
      '[{"id":7,"api_key":"PR0A1-DEM0K-EY001-AURRA-PR001","pro":true,"lite":false,' +
        '"linked_app_store":"aurora-outfitters.myshopify.com","main_url":"aurora-outfitters.com",' +
        '"myshopify":"aurora-outfitters","secondary_url":null}]',
    );
  });

  it('refuses a body that does not match its schema, as zod did (a 500, never a coerced value)', () => {
    const serialize = compile(keys.getKeys.response);
    const good = { id: 1, api_key: 'K', pro: true, lite: false };
    const nulls = { linked_app_store: null, main_url: null, myshopify: null, secondary_url: null };
    for (const bad of [
      [{ ...good, ...nulls, id: '1' }],
      [{ ...good, ...nulls, id: 1.5 }],
      [{ ...good, ...nulls, pro: 'yes' }],
      [{ ...good, linked_app_store: null, main_url: null, myshopify: null }],
      [{ ...good, ...nulls, api_key: null }],
      { keys: [] },
    ]) {
      expect(() => serialize(bad)).toThrow(expect.objectContaining({ code: 'FST_ERR_RESPONSE_SERIALIZATION' }));
      expect(() => zodCompile(keys.getKeys.response)(bad)).toThrow();
    }
  });

  it('keeps zod for what JSON Schema cannot say exactly (formats, dates, transforms)', () => {
    expect(exactJsonSchema(z.object({ at: z.date() }))).toBeNull();
    expect(exactJsonSchema(z.object({ email: z.email() }))).toBeNull();
    expect(
      exactJsonSchema(
        z.pipe(
          z.string(),
          z.transform((s) => s.length),
        ),
      ),
    ).toBeNull();
    const at = new Date('2026-11-23T10:00:00.000Z');
    expect(compile(z.object({ at: z.date() }))({ at })).toBe('{"at":"2026-11-23T10:00:00.000Z"}');
    expect(() => compile(z.object({ email: z.email() }))({ email: 'not an email' })).toThrow();
  });

  it('compiles a schema once, however many routes and apps use it; each route names itself in its errors', () => {
    const schema = z.object({ id: z.number() });
    const spy = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const first = serializerCompiler({ schema, method: 'GET', url: '/a', httpStatus: '200' }) as Serialize;
      const second = serializerCompiler({ schema, method: 'POST', url: '/b', httpStatus: '200' }) as Serialize;
      expect(spy).toHaveBeenCalledTimes(1);
      expect(first({ id: 1 })).toBe('{"id":1}');
      expect(() => second({ id: 'x' })).toThrow(expect.objectContaining({ method: 'POST', url: '/b' }));
    } finally {
      spy.mockRestore();
    }
  });

  it('covers the hot responses with the compiled writer', () => {
    const fast = EXACT.map(([name]) => name);
    expect(fast).toEqual(expect.arrayContaining(['getKeys', 'me', 'error']));
  });

  it.each(EXACT)('%s: same JSON as zod for any valid body, unknown keys left out', (_name, schema, json) => {
    const fast = compile(schema);
    const reference = zodCompile(schema);
    fc.assert(
      fc.property(valuesOf(json), (value) => {
        const expected = reference(value);
        expect(fast(value)).toBe(expected);
        expect(fast(withExtraKeys(value))).toBe(expected);
      }),
      { numRuns: 60 },
    );
  });
});
