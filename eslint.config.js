import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const featuresDir = path.join(root, 'apps/web/src/features');
const serverModulesDir = path.join(root, 'apps/server/src/modules');
const schemaFile = path.join(root, 'apps/server/src/db/schema');

/**
 * One owner per table (docs/architecture.md): only the owning module imports a table from db/schema. Code outside
 * modules/ (the seed, the composition, integrations) is not checked here.
 */
const TABLE_OWNERS = {
  users: 'auth',
  sessions: 'auth',
  passwordResets: 'auth',
  orders: 'auth',
  licenseKeys: 'keys',
  licenseKeyTierChanges: 'keys',
  userStores: 'connect',
  homepageSettings: 'homepage',
  releases: 'releases',
  releaseCurrent: 'releases',
  releaseDownloads: 'releases',
  upgradePrices: 'upgrades',
  upgradeTokens: 'upgrades',
  purchasedUpgrades: 'upgrades',
  upgradeOrders: 'payments',
  paymentWebhookEvents: 'payments',
  vatChecks: 'billing',
  invoices: 'invoices',
  invoiceCounters: 'invoices',
  auditLog: 'audit',
  analyticsOutbox: 'analytics',
  themeUpgradeRuns: 'theme-upgrades',
  creditAccounts: 'credits',
  creditLedger: 'credits',
  redeemProducts: 'credits',
  creditRedemptions: 'credits',
  creditPacks: 'credits',
  storeReports: 'credits',
  storeReportDomains: 'credits',
  licenseCheckins: 'licenses',
  jobs: 'jobs',
  jobSchedules: 'jobs',
};

const moduleOf = (file) =>
  file.startsWith(serverModulesDir + path.sep) ? file.slice(serverModulesDir.length + 1).split(path.sep)[0] : null;
const isTypeOnly = (node) =>
  node.importKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((specifier) => specifier.importKind === 'type'));

/**
 * Architecture boundaries (house style 9): a web feature never imports another feature, the web app never imports
 * the server, and the shared package imports neither app.
 */
const boundaries = {
  meta: { type: 'problem', messages: { crossing: '{{what}}' } },
  create(context) {
    const file = context.filename;
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      const target = source.startsWith('.') ? path.resolve(path.dirname(file), source) : source;
      const report = (what) => context.report({ node, messageId: 'crossing', data: { what } });
      if (file.startsWith(featuresDir + path.sep) && target.startsWith(featuresDir + path.sep)) {
        const own = file.slice(featuresDir.length + 1).split(path.sep)[0];
        const other = target.slice(featuresDir.length + 1).split(path.sep)[0];
        if (own !== other)
          report(
            `Feature "${own}" must not import feature "${other}": move the shared part to components/ui, lib or packages/shared.`,
          );
      }
      if (
        file.startsWith(path.join(root, 'apps/web')) &&
        (target.startsWith(path.join(root, 'apps/server')) || source.startsWith('@keyport/server'))
      ) {
        report('The web app must not import server code: share it through packages/shared.');
      }
      if (file.startsWith(path.join(root, 'packages/shared')) && target.startsWith(path.join(root, 'apps'))) {
        report('packages/shared must not import from the apps.');
      }
      const ownModule = moduleOf(file);
      const targetModule = moduleOf(target);
      if (ownModule && targetModule && ownModule !== targetModule) {
        const serviceType = /\.service(\.ts)?$/.test(target) && isTypeOnly(node);
        if (!serviceType) {
          report(
            `Server module "${ownModule}" must not import "${targetModule}" internals: use its service, typed with \`import type\` from ${targetModule}.service and injected in services.ts.`,
          );
        }
      }
      if (ownModule && target.replace(/\.ts$/, '') === schemaFile) {
        for (const specifier of node.specifiers ?? []) {
          const name = specifier.imported?.name;
          const owner = TABLE_OWNERS[name];
          if (specifier.importKind !== 'type' && owner && owner !== ownModule) {
            report(`Table "${name}" belongs to module "${owner}" (docs/architecture.md): go through its service.`);
          }
        }
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: (node) => check({ ...node, source: node.source }),
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'data/**',
      'apps/server/src/db/migrations/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { keyport: { rules: { boundaries } } },
    rules: {
      'keyport/boundaries': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Query keys live once, in apps/web/src/lib/query-keys.ts: no key written out as an array anywhere else.
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: 'Use a key from lib/query-keys.ts instead of an array literal.',
        },
        {
          selector:
            'CallExpression[callee.property.name=/^(getQueryData|setQueryData|setQueriesData|fetchQuery|prefetchQuery|ensureQueryData|removeQueries|resetQueries|cancelQueries)$/] > ArrayExpression',
          message: 'Use a key from lib/query-keys.ts instead of an array literal.',
        },
      ],
    },
  },
  {
    files: ['apps/web/src/lib/query-keys.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['scripts/**', 'bench/**', 'apps/server/build.mjs', 'e2e/**', '**/*.test.ts', '**/test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
);
