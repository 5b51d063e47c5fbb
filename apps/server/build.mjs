// Bundles the server (and the shared package it imports) into dist/server.js; npm packages stay external.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.join(root, 'dist');
fs.rmSync(outdir, { recursive: true, force: true });

const result = await build({
  entryPoints: [path.join(root, 'src/server.ts')],
  outfile: path.join(outdir, 'server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Node ≥ 20.10 reads `import … with { type: 'json' }`; esbuild's node20 target would drop the attribute, and Node then
  // refuses the JSON import (ERR_IMPORT_ASSERTION_TYPE_MISSING).
  supported: { 'import-attributes': true },
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        // Everything from node_modules stays a runtime import, except our own workspace package.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@keyport/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
fs.cpSync(path.join(root, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });

// Issue 21: a production install (`npm prune --omit=dev`) keeps only `dependencies`. Every package the bundle imports
// at run time must be one of this workspace's: a root or dev dependency would be missing there.
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const builtins = new Set(builtinModules);
const missing = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const { path: specifier, external } of output.imports) {
    if (!external || specifier.startsWith('node:') || builtins.has(specifier.split('/')[0])) continue;
    const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
    if (!manifest.dependencies?.[name]) missing.add(name);
  }
}
if (missing.size > 0) {
  console.error(
    `The server imports ${[...missing].join(', ')} at run time, not in apps/server/package.json "dependencies": ` +
      'a production install would not have it. Add it there (npm install <name> -w @keyport/server).',
  );
  process.exit(1);
}
console.log('server built: apps/server/dist/server.js');
