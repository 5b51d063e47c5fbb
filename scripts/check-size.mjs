// Size budget: the JavaScript the browser loads up front for /customer/my-keys (the entry script and every chunk it
// preloads), gzipped, must stay within 170 KiB. A size, not a timing: it fails the test command when over.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KIB = 170;
const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g)].map(
  (m) => m[1],
);
if (scripts.length === 0) throw new Error('No scripts found in apps/web/dist/index.html: build the web app first');

let total = 0;
for (const src of new Set(scripts)) {
  const bytes = gzipSync(fs.readFileSync(path.join(dist, src)), { level: 9 }).length;
  total += bytes;
  console.log(`  ${src}  ${(bytes / 1024).toFixed(1)} KiB gzip`);
}
const kib = total / 1024;
console.log(`Initial JS for /customer/my-keys: ${kib.toFixed(1)} KiB gzip (budget ${BUDGET_KIB} KiB)`);
if (kib > BUDGET_KIB) {
  console.error(`Over budget by ${(kib - BUDGET_KIB).toFixed(1)} KiB`);
  process.exit(1);
}
