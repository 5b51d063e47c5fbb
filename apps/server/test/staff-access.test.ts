import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '@keyport/shared/contracts/define';
import { auth, createTestApp, signUp, type TestApp } from './helpers/test-app';

/**
 * Issue 12: every staff route refuses anonymous callers (401), customers and team members (403), whatever the body;
 * and every staff write asks for a reason. The routes are found from the contracts themselves, so a new staff route
 * is covered the day it is added.
 */
const contractsDir = path.resolve(import.meta.dirname, '../../../packages/shared/src/contracts');

async function staffContracts(): Promise<Contract[]> {
  const found: Contract[] = [];
  for (const file of readdirSync(contractsDir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const exports = (await import(path.join(contractsDir, file))) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      const contract = value as Partial<Contract> | null;
      if (contract && typeof contract === 'object' && contract.access === 'staff' && contract.operationId) {
        found.push(contract as Contract);
      }
    }
  }
  return found.sort((a, b) => a.operationId.localeCompare(b.operationId));
}

/** The keys of a zod (mini) object schema. */
function shapeKeys(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined)?._zod?.def;
  return Object.keys(def?.shape ?? {});
}

const urlOf = (contract: Contract) => contract.path.replace(/:([A-Za-z]+)/g, '1');

let t: TestApp;
let contracts: Contract[];
let customer: string;
let team: string;

beforeAll(async () => {
  t = await createTestApp();
  contracts = await staffContracts();
  customer = (await signUp(t, 'access-customer@example.com', { ip: '10.90.0.1' })).token;
  team = (await signUp(t, 'access-team@example.com', { role: 'team', ip: '10.90.0.2' })).token;
});

describe('staff routes', () => {
  it('are found from the contracts (a sanity floor: the console has at least this many)', () => {
    expect(contracts.length).toBeGreaterThanOrEqual(15);
  });

  it('refuse anonymous callers with 401, customers and team members with 403, before reading the body', async () => {
    const failures: string[] = [];
    for (const contract of contracts) {
      for (const [who, headers, expected] of [
        ['anonymous', {}, 401],
        ['customer', auth(customer), 403],
        ['team member', auth(team), 403],
      ] as const) {
        const response = await t.app.inject({
          method: contract.method,
          url: urlOf(contract),
          headers: { ...headers, ...(contract.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
          ...(contract.method === 'GET' ? {} : { payload: '{}' }),
        });
        if (response.statusCode !== expected) {
          failures.push(`${contract.method} ${contract.path} as ${who}: ${response.statusCode} ${response.body}`);
        } else {
          expect(response.json<{ code: string }>().code).toBe(expected === 401 ? 'unauthorized' : 'forbidden');
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('that write ask for a reason (the audit row carries it)', () => {
    const missing = contracts
      .filter((contract) => contract.method !== 'GET')
      .filter((contract) => {
        const keys = [...shapeKeys(contract.body), ...shapeKeys(contract.multipartBody)];
        return !keys.includes('reason') && !keys.includes('note');
      })
      .map((contract) => `${contract.method} ${contract.path}`);
    expect(missing).toEqual([]);
  });
});
