// `npm start`: runs the built portal (API + web app in one process), building first when the build is missing
// or older than the sources.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverBundle = path.join(root, 'apps/server/dist/server.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}

const builtAt = Math.min(
  ...[serverBundle, webIndex].map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)),
);
const sourcesAt = Math.max(
  ...['apps/server/src', 'apps/web/src', 'packages/shared/src'].map((dir) => newestMtime(path.join(root, dir))),
);
if (builtAt < sourcesAt) {
  console.log(
    builtAt === 0 ? 'No build found: building Keyport…' : 'Sources changed since the last build: rebuilding…',
  );
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}

// Development by default: the sandboxes and the demo seller. A deployment sets NODE_ENV=production, which requires the
// real integrations and the seller's identity (README "Production checklist").
process.env.NODE_ENV ??= 'development';
await import(serverBundle);
