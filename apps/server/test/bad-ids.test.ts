import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '@keyport/shared/contracts/define';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/**
 * Issue 19: an id or an integer of 2^31 or more reached PostgreSQL's `integer` columns and came back as a 500. Every
 * contract is walked (a new route is covered the day it is added): each id or integer in its path, query string or
 * JSON body gets 2^31, 2^53, -1, 1.5 and "abc" in an otherwise valid request, and must be answered 400
 * `invalid_request`, never 500.
 */
const contractsDir = path.resolve(import.meta.dirname, '../../../packages/shared/src/contracts');

const BAD_VALUES: readonly { label: string; json: number | string }[] = [
  { label: '2^31', json: 2 ** 31 },
  { label: '2^53', json: 2 ** 53 },
  { label: '-1', json: -1 },
  { label: '1.5', json: 1.5 },
  { label: '"abc"', json: 'abc' },
];

/**
 * Integers whose valid range includes one of the bad values (the route must still never answer 500 for it):
 * a credit adjustment of -1 is a removal; a download link's expiry is a timestamp in milliseconds.
 */
const ACCEPTED: Record<string, readonly string[]> = {
  'staffAdjustCredits body amount': ['-1'],
  'downloadRelease query expires': ['2^31'],
  'trackAnalyticsEvent body value': ['1.5'],
  // Jobs are bigint rows (bigIdString): 2^31 is a valid job id; 2^53 is refused.
  'staffListJobs query cursor': ['2^31'],
  'staffRetryJob params id': ['2^31'],
};

type Part = 'params' | 'query' | 'body';
interface ZodLike {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, ZodLike>;
      element?: ZodLike;
      innerType?: ZodLike;
      entries?: Record<string, string>;
    };
  };
  '~standard': { validate: (value: unknown) => { issues?: readonly unknown[] } | Promise<unknown> };
}

const accepts = (schema: ZodLike, value: unknown): boolean => {
  const result = schema['~standard'].validate(value) as { issues?: readonly unknown[] };
  return !result.issues;
};

/** Leaf values tried, in order, to build a valid request: the first one the field's schema accepts is used. */
const SAMPLES: readonly unknown[] = [
  1,
  100,
  '1',
  'LITE',
  'DE',
  'example.myshopify.com',
  '1.0.0',
  '2026-01-01',
  'Checking bad ids',
  'staff@example.com',
  'price_test_1',
  'pi_sandbox_abc123',
  'Ab_cdefghijklmnopqrstuvwxyz0123456789-ABCDE',
  true,
  'abc',
];

/** A valid value for the schema (optional fields left out), or an error naming what could not be filled. */
function sample(schema: ZodLike, where: string): unknown {
  const def = schema._zod.def;
  if (def.type === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(def.shape ?? {})) {
      if (accepts(field, undefined)) continue;
      out[key] = sample(field, `${where}.${key}`);
    }
    return out;
  }
  if (def.type === 'array') return accepts(schema, []) ? [] : [sample(def.element!, `${where}[]`)];
  if (def.type === 'enum') return Object.values(def.entries ?? {})[0];
  const found = SAMPLES.find((value) => accepts(schema, value));
  if (found === undefined) throw new Error(`no sample value fits ${where}`);
  return found;
}

const unwrap = (schema: ZodLike): ZodLike => {
  let current = schema;
  while (['optional', 'nullable', 'default'].includes(current._zod.def.type)) current = current._zod.def.innerType!;
  return current;
};

/**
 * The id and integer fields of a request part, as paths into it. In a path or query string: a field that takes "1"
 * and refuses "abc". In a JSON body: a field that takes the number 1 and refuses "abc". Arrays are entered at [0].
 */
function numericFields(schema: ZodLike, part: Part, prefix: (string | number)[] = []): (string | number)[][] {
  const inner = unwrap(schema);
  const def = inner._zod.def;
  if (def.type === 'object') {
    return Object.entries(def.shape ?? {}).flatMap(([key, field]) => numericFields(field, part, [...prefix, key]));
  }
  if (def.type === 'array') return numericFields(def.element!, part, [...prefix, 0]);
  const probe = part === 'body' ? 1 : '1';
  return accepts(inner, probe) && !accepts(inner, 'abc') ? [prefix] : [];
}

function setAt(target: Record<string, unknown>, fieldPath: (string | number)[], value: unknown): void {
  let node = target as Record<string | number, unknown>;
  for (const [index, key] of fieldPath.entries()) {
    if (index === fieldPath.length - 1) {
      node[key] = value;
      return;
    }
    if (node[key] === undefined) node[key] = typeof fieldPath[index + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
}

/** An array field entered at [0] needs a valid element there before one of its fields is changed. */
function ensureElements(schema: ZodLike, target: Record<string, unknown>, fieldPath: (string | number)[]): void {
  let node: unknown = target;
  let current = unwrap(schema);
  for (const key of fieldPath.slice(0, -1)) {
    const def = current._zod.def;
    const next = unwrap(def.type === 'array' ? def.element! : def.shape![key as string]!);
    const holder = node as Record<string | number, unknown>;
    if (holder[key] === undefined || (Array.isArray(holder[key]) && typeof key === 'string')) {
      holder[key] = next._zod.def.type === 'array' ? [sample(next._zod.def.element!, String(key))] : sample(next, '');
    }
    node = holder[key];
    current = next;
  }
}

interface Probe {
  contract: Contract;
  part: Part;
  field: (string | number)[];
}

async function allContracts(): Promise<Contract[]> {
  const found: Contract[] = [];
  for (const file of readdirSync(contractsDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const exports = (await import(path.join(contractsDir, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      const contract = value as Partial<Contract> | null;
      if (contract && typeof contract === 'object' && contract.operationId && contract.method) {
        found.push(contract as Contract);
      }
    }
  }
  return found.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

function probesOf(contract: Contract): Probe[] {
  return (['params', 'query', 'body'] as const).flatMap((part) =>
    contract[part]
      ? numericFields(contract[part] as unknown as ZodLike, part).map((field) => ({ contract, part, field }))
      : [],
  );
}

/** A request the contract accepts: every required field filled with a valid value. */
function baseRequest(contract: Contract) {
  const part = (name: Part) =>
    contract[name] ? (sample(contract[name] as unknown as ZodLike, `${contract.operationId} ${name}`) as object) : {};
  return {
    params: part('params') as Record<string, unknown>,
    query: part('query') as Record<string, unknown>,
    body: part('body') as Record<string, unknown>,
  };
}

let t: TestApp;
let contracts: Contract[];
const tokens: Record<Contract['access'], Record<string, string>> = { public: {}, user: {}, staff: {} };

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  contracts = await allContracts();
  tokens.user = auth((await signUp(t, 'ids-customer@example.com', { ip: '10.91.0.1' })).token);
  tokens.staff = auth((await signUp(t, 'staff@example.com', { role: 'staff', ip: '10.91.0.2' })).token);
});

describe('ids and integers in requests', () => {
  it('are found in the contracts (a floor: at least the routes issue 19 named)', () => {
    const probed = new Set(contracts.filter((contract) => probesOf(contract).length > 0).map((c) => c.operationId));
    for (const operationId of [
      'getInvoicePdf',
      'redeemCredits',
      'createCreditPackPaymentIntent',
      'getThemeFileUpdate',
      'staffRevokeUpgradeToken',
      'staffListOrders',
      'getStaffCustomer',
    ]) {
      expect(probed, operationId).toContain(operationId);
    }
    expect(probed.size).toBeGreaterThanOrEqual(35);
  });

  it('answer 400 invalid_request for 2^31, 2^53, -1, 1.5 and "abc", never 500', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const contract of contracts) {
      const probes = probesOf(contract);
      if (probes.length === 0) continue;
      const base = baseRequest(contract);
      for (const part of ['params', 'query', 'body'] as const) {
        if (contract[part]) expect(accepts(contract[part] as unknown as ZodLike, base[part]), contract.path).toBe(true);
      }
      for (const { part, field } of probes) {
        for (const bad of BAD_VALUES) {
          const request = structuredClone(base);
          ensureElements(contract[part] as unknown as ZodLike, request[part], field);
          setAt(request[part], field, part === 'body' ? bad.json : String(bad.json));
          const url =
            contract.path.replace(/:([A-Za-z]+)/g, (_, name: string) =>
              encodeURIComponent(String(request.params[name])),
            ) +
            (part === 'query' || Object.keys(request.query).length > 0
              ? `?${new URLSearchParams(request.query as Record<string, string>).toString()}`
              : '');
          const response = await t.app.inject({
            method: contract.method,
            url,
            headers: {
              ...tokens[contract.access],
              ...(contract.method === 'GET' ? {} : { 'content-type': 'application/json' }),
            },
            ...(contract.method === 'GET' ? {} : { payload: JSON.stringify(request.body) }),
          });
          sent += 1;
          const name = `${contract.operationId} ${part} ${field.join('.')}`;
          const what = `${contract.method} ${contract.path} ${part} ${field.join('.')}=${bad.label}`;
          if (response.statusCode >= 500) {
            failures.push(`${what}: ${response.statusCode} ${response.body}`);
          } else if (ACCEPTED[name]?.includes(bad.label)) {
            continue;
          } else if (response.statusCode !== 400 || response.json<{ code?: string }>().code !== 'invalid_request') {
            failures.push(`${what}: ${response.statusCode} ${response.body}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(200);
  });
});
