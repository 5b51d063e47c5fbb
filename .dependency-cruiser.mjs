// The architecture's import rules (docs/architecture.md, house style 9, ADR 043), checked by dependency-cruiser from
// `npm run lint` (`npm run lint:deps`). Paths are relative to the repository root. Type-only imports count as
// dependencies here (`tsPreCompilationDeps`), so a circle made only of `import type` fails too. The table-owner rule
// needs the imported names, which only ESLint sees: it stays in eslint.config.js (no-restricted-imports).

const MODULE = '^apps/server/src/modules/([^/]+)/';
const SERVICE = '^apps/server/src/modules/[^/]+/[^/]+[.]service[.]ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle, type-only and lazy imports included. Break it with a one-way query, an event, or a type moved down (to its own file, the contracts or the schema).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'feature-imports-feature',
      severity: 'error',
      comment:
        'A web feature must not import another feature: move the shared part to components/ui, lib or packages/shared, or compose both in app/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-imports-server',
      severity: 'error',
      comment: 'The web app must not import server code: share it through packages/shared.',
      from: { path: '^apps/web/' },
      to: { path: ['^apps/server/', '^@keyport/server'] },
    },
    {
      name: 'shared-imports-app',
      severity: 'error',
      comment: 'packages/shared must not import from the apps.',
      from: { path: '^packages/shared/' },
      to: { path: ['^apps/', '^@keyport/(server|web)'] },
    },
    {
      name: 'module-imports-module-internals',
      severity: 'error',
      comment:
        "A server module must not import another module's internals: use its service, typed with `import type` from <module>.service and injected in services.ts.",
      from: { path: MODULE },
      to: { path: '^apps/server/src/modules/', pathNot: ['^apps/server/src/modules/$1/', SERVICE] },
    },
    {
      name: 'module-imports-module-service-value',
      severity: 'error',
      comment:
        "A server module may import another module's service only as a type (`import type`): services.ts builds and injects the service.",
      from: { path: MODULE },
      to: { path: SERVICE, pathNot: '^apps/server/src/modules/$1/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    // What `npm run lint` checks: the product, its tests and tools. Build output and installed packages are not.
    exclude: { path: ['(^|/)node_modules/', '(^|/)dist/', '^apps/server/src/db/migrations/', '(^|/)test-results/'] },
    doNotFollow: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
    // The workspace packages resolve through their node_modules links to their sources.
    combinedDependencies: false,
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
