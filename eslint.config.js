import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const featuresDir = path.join(root, 'apps/web/src/features');

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
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
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
