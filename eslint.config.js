import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One owner per table (docs/architecture.md): only the owning module imports a table from db/schema. Code outside
 * modules/ (the seed, the composition, integrations) is not checked here.
 */
export const TABLE_OWNERS = {
  users: 'auth',
  sessions: 'auth',
  passwordResets: 'auth',
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
  orders: 'payments',
  paymentWebhookEvents: 'payments',
  vatChecks: 'billing',
  invoices: 'invoices',
  invoiceCounters: 'invoices',
  auditLog: 'audit',
  analyticsOutbox: 'analytics',
  themeFileUpdateRuns: 'theme-file-updates',
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
  vatRates: 'billing',
};

// db/schema (its index) or one of its files, db/schema/<owner> (issue 21: one file per owning module).
const SCHEMA_IMPORT = '(^|/)db/schema(/[\\w-]+)?(\\.ts)?$';
const tablesOf = (owner) => Object.keys(TABLE_OWNERS).filter((table) => TABLE_OWNERS[table] === owner);
const owners = [...new Set(Object.values(TABLE_OWNERS))];

/**
 * The table-owner rule (ADR 043): in a server module, importing another module's table from db/schema fails; a type
 * import (`import type { … }`, or every name `type`) is allowed. One pattern per owner, so the message names it. The
 * other boundaries (features, web/server/shared, module internals) and import circles are dependency-cruiser's
 * (.dependency-cruiser.mjs), run by `npm run lint` too.
 */
const tableRestrictions = (module) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      patterns: owners
        .filter((owner) => owner !== module)
        .map((owner) => ({
          regex: SCHEMA_IMPORT,
          importNames: tablesOf(owner),
          allowTypeImports: true,
          message: `These tables belong to module "${owner}" (docs/architecture.md): go through its service.`,
        })),
    },
  ],
});
const tableOwnerConfigs = [
  // A module that owns no table (customers-admin…) reaches every table through its owner's service.
  { files: ['apps/server/src/modules/**/*.ts'], rules: tableRestrictions(null) },
  ...owners.map((owner) => ({ files: [`apps/server/src/modules/${owner}/**/*.ts`], rules: tableRestrictions(owner) })),
];

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
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  ...tableOwnerConfigs,
  {
    // services.ts builds the services in one direction (issue 21): a service is never handed a callback that reaches a
    // service built after it (a closure over a later `const`), which hid three circles at construction.
    files: ['apps/server/src/services.ts'],
    rules: {
      '@typescript-eslint/no-use-before-define': ['error', { functions: false, classes: true, variables: true }],
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
