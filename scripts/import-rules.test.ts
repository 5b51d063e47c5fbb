// The import rules of `npm run lint` fire (ADR 043): dependency-cruiser's (.dependency-cruiser.mjs: circles, features,
// web/server/shared, module internals) on a small tree written for the test, and ESLint's table-owner rule
// (eslint.config.js) on texts linted as if they were files of the server's modules.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const depcruise = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/** Each file of the tree, and what it imports. Names say what each one is for. */
const TREE: Record<string, string> = {
  // Circles: one of type-only imports, one through a lazy import; a one-way pair is not one.
  'apps/web/src/lib/circle-a.ts': "import type { B } from './circle-b';\nexport type A = { b?: B };\n",
  'apps/web/src/lib/circle-b.ts': "import type { A } from './circle-a';\nexport type B = { a?: A };\n",
  'apps/web/src/lib/menu.tsx':
    "import type { MenuProps } from './menu-loaded';\nexport const load = () => import('./menu-loaded');\nexport type P = MenuProps;\n",
  'apps/web/src/lib/menu-loaded.tsx':
    "import type { P } from './menu';\nexport type MenuProps = { label: string };\nexport const x: P | null = null;\n",
  'apps/web/src/lib/one-way-a.ts': "import { b } from './one-way-b';\nexport const a = b + 1;\n",
  'apps/web/src/lib/one-way-b.ts': 'export const b = 1;\n',
  // Features: another feature is out of bounds; the feature's own files, lib and shared are not.
  'apps/web/src/features/cart/cart.tsx':
    "import { checkout } from '../checkout/checkout';\nimport { line } from './line';\nimport { b } from '../../lib/one-way-b';\nimport { rule } from '../../../../../packages/shared/src/domain/rule';\nexport const cart = [checkout, line, b, rule];\n",
  'apps/web/src/features/cart/line.ts': 'export const line = 1;\n',
  'apps/web/src/features/checkout/checkout.ts': 'export const checkout = 1;\n',
  // The web app never imports the server; shared imports no app.
  'apps/web/src/lib/uses-server.ts': "import { secret } from '../../../server/src/secret';\nexport const s = secret;\n",
  'apps/server/src/secret.ts': 'export const secret = 1;\n',
  'packages/shared/src/domain/rule.ts': 'export const rule = 1;\n',
  'packages/shared/src/domain/uses-app.ts':
    "import { line } from '../../../../apps/web/src/features/cart/line';\nexport const l = line;\n",
  // Server modules: another module's service as a type only (statement or every name); never its other files.
  'apps/server/src/modules/orders/orders.service.ts':
    "import type { StockService } from '../stock/stock.service';\nimport { type StockService as Same } from '../stock/stock.service';\nexport type OrdersDeps = { stock: StockService; same: Same };\n",
  'apps/server/src/modules/orders/uses-stock-repo.ts':
    "import { findStock } from '../stock/stock.repo';\nexport const f = findStock;\n",
  'apps/server/src/modules/orders/uses-stock-service.ts':
    "import { createStockService } from '../stock/stock.service';\nexport const c = createStockService;\n",
  'apps/server/src/modules/stock/stock.service.ts':
    "import { findStock } from './stock.repo';\nexport function createStockService() { return { findStock }; }\nexport type StockService = ReturnType<typeof createStockService>;\n",
  'apps/server/src/modules/stock/stock.repo.ts': 'export const findStock = () => 1;\n',
};

interface Violation {
  rule: string;
  from: string;
  to: string;
  /** A circle's modules, from `to` round to `from`. */
  cycle?: string[];
}

let tree: string;
let violations: Violation[];

beforeAll(() => {
  tree = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-import-rules-'));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), text);
  }
  const cruise = (outputType: string) =>
    spawnSync(
      process.execPath,
      [
        depcruise,
        'apps',
        'packages',
        '--config',
        path.join(root, '.dependency-cruiser.mjs'),
        '--output-type',
        outputType,
      ],
      { cwd: tree, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
  // As `npm run lint:deps` runs it (from the tree's root, the repository's configuration): it fails the command.
  const lint = cruise('err');
  expect(lint.status).not.toBe(0);
  expect(lint.stdout).toContain('error no-circular');
  // The same cruise, read.
  const run = cruise('json');
  expect(run.stderr).toBe('');
  const result = JSON.parse(run.stdout) as {
    summary: { violations: { rule: { name: string }; from: string; to: string; cycle?: { name: string }[] }[] };
  };
  violations = result.summary.violations.map(({ rule, from, to, cycle }) => ({
    rule: rule.name,
    from,
    to,
    ...(cycle ? { cycle: cycle.map(({ name }) => name) } : {}),
  }));
}, 180_000);

afterAll(() => {
  if (tree) fs.rmSync(tree, { recursive: true, force: true });
});

describe('dependency-cruiser (npm run lint:deps)', () => {
  it('fails on an import circle, type-only imports and lazy imports included, naming every file in it', () => {
    // One violation per circle, from one of its files (which one is the tool's choice); the circle names the others.
    const circles = violations
      .filter((violation) => violation.rule === 'no-circular')
      .map(({ from, cycle }) => [...new Set([from, ...(cycle ?? [])])].sort());
    expect(circles.sort()).toEqual([
      ['apps/web/src/lib/circle-a.ts', 'apps/web/src/lib/circle-b.ts'],
      ['apps/web/src/lib/menu-loaded.tsx', 'apps/web/src/lib/menu.tsx'],
    ]);
  });

  it('fails when a web feature imports another feature, not its own files, lib or shared', () => {
    expect(violations.filter((violation) => violation.rule === 'feature-imports-feature')).toEqual([
      {
        rule: 'feature-imports-feature',
        from: 'apps/web/src/features/cart/cart.tsx',
        to: 'apps/web/src/features/checkout/checkout.ts',
      },
    ]);
  });

  it('fails when the web app imports server code, or shared imports an app', () => {
    expect(violations.filter((violation) => violation.rule === 'web-imports-server')).toEqual([
      { rule: 'web-imports-server', from: 'apps/web/src/lib/uses-server.ts', to: 'apps/server/src/secret.ts' },
    ]);
    expect(violations.filter((violation) => violation.rule === 'shared-imports-app')).toEqual([
      {
        rule: 'shared-imports-app',
        from: 'packages/shared/src/domain/uses-app.ts',
        to: 'apps/web/src/features/cart/line.ts',
      },
    ]);
  });

  it("fails when a server module imports another module's internals, or its service as a value", () => {
    expect(violations.filter((violation) => violation.rule.startsWith('module-'))).toEqual([
      {
        rule: 'module-imports-module-internals',
        from: 'apps/server/src/modules/orders/uses-stock-repo.ts',
        to: 'apps/server/src/modules/stock/stock.repo.ts',
      },
      {
        rule: 'module-imports-module-service-value',
        from: 'apps/server/src/modules/orders/uses-stock-service.ts',
        to: 'apps/server/src/modules/stock/stock.service.ts',
      },
    ]);
  });

  it('reports nothing else: the allowed imports of the tree pass', () => {
    expect(violations).toHaveLength(7);
  });
});

describe("ESLint's table-owner rule (eslint.config.js)", () => {
  const eslint = new ESLint({ cwd: root });
  const problems = async (file: string, text: string) => {
    const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
    return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
  };

  it("fails when a module imports another module's table, naming its owner", async () => {
    const text =
      "import { creditLedger, licenseKeys, orders } from '../../db/schema';\nexport const tables = [creditLedger, licenseKeys, orders];\n";
    expect(await problems('apps/server/src/modules/credits/new-file.ts', text)).toEqual(
      ['licenseKeys', 'orders'].map((table) => ({
        ruleId: '@typescript-eslint/no-restricted-imports',
        message: expect.stringContaining(`'${table}' import from '../../db/schema' is restricted`),
      })),
    );
    const [keys, payments] = await problems('apps/server/src/modules/credits/new-file.ts', text);
    expect(keys!.message).toContain('These tables belong to module "keys"');
    expect(payments!.message).toContain('These tables belong to module "payments"');
  });

  it('fails the same on a table imported from its schema file, db/schema/<owner> (issue 21)', async () => {
    const text = "import { licenseKeys } from '../../db/schema/keys';\nexport const table = licenseKeys;\n";
    expect(await problems('apps/server/src/modules/credits/new-file.ts', text)).toEqual([
      {
        ruleId: '@typescript-eslint/no-restricted-imports',
        message: expect.stringContaining('These tables belong to module "keys"'),
      },
    ]);
    expect(await problems('apps/server/src/modules/keys/new-file.ts', text)).toEqual([]);
  });

  it('fails in a module that owns no table; passes for type imports and outside modules/', async () => {
    const value = "import { users } from '../../db/schema';\nexport const table = users;\n";
    expect(await problems('apps/server/src/modules/customers-admin/new-file.ts', value)).toHaveLength(1);
    expect(await problems('apps/server/src/modules/auth/new-file.ts', value)).toEqual([]);
    expect(
      await problems('apps/server/src/db/new-file.ts', "import { users } from './schema';\nexport const t = users;\n"),
    ).toEqual([]);
    const types =
      "import type { orders } from '../../db/schema';\nimport { type users } from '../../db/schema';\nexport type Rows = typeof orders.$inferSelect | typeof users.$inferSelect;\n";
    expect(await problems('apps/server/src/modules/invoices/new-file.ts', types)).toEqual([]);
  });
});

describe("ESLint's one-way construction rule for services.ts (issue 21)", () => {
  const eslint = new ESLint({ cwd: root });
  const problems = async (file: string, text: string) => {
    const [result] = await eslint.lintText(text, { filePath: path.join(root, file) });
    return result!.messages.map(({ ruleId, message }) => ({ ruleId, message }));
  };
  // A late-bound callback: `a` is handed a closure over `b`, which is built after it.
  const lateBound = [
    'const make = (deps: object) => deps;',
    'export function build() {',
    '  const a = make({ count: () => b.count() });',
    '  const b = { count: () => 1, a };',
    '  return b;',
    '}',
    '',
  ].join('\n');
  const oneWay = [
    'const make = (deps: object) => deps;',
    'export function build() {',
    '  const b = { count: () => 1 };',
    '  const a = make({ count: () => b.count() });',
    '  return { a, b };',
    '}',
    '',
  ].join('\n');

  it('fails on a service handed a callback to a service built after it; passes when built in order', async () => {
    expect(await problems('apps/server/src/services.ts', lateBound)).toEqual([
      { ruleId: '@typescript-eslint/no-use-before-define', message: "'b' was used before it was defined." },
    ]);
    expect(await problems('apps/server/src/services.ts', oneWay)).toEqual([]);
  });
});
