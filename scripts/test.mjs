// `npm test`: every check, run side by side where nothing orders them (ADR 046). On a 2-core machine the suite's
// parts leave much of the machine idle when run one after another (a browser test mostly waits; lint and typecheck
// use one core each), so they share it:
//
//   tools ─────────────────────────────┐ (Chromium installed when missing)
//   build ──┬─ size                     ├─ browser (Playwright against the build)
//           └──────────────────────────┘
//   engines · lint · typecheck · vitest (waits for tools only when unzip is missing)
//   (CI, TEST_PRODUCTION_INSTALL=1: production, after build: a production install of the build starts)
//
// Each part writes to its own log; a part's log is printed whole when it ends (no interleaving), with a line saying
// how long it took. Every part runs to its end even when another failed, so one run shows every failure; the command
// fails when any part failed. `node scripts/test.mjs lint vitest` runs only the parts named (and what they need).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-test-'));
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** name → command and what must have succeeded first. */
const PARTS = {
  tools: { command: 'node scripts/ensure-test-tools.mjs', after: [] },
  engines: { command: 'node scripts/check-engines.mjs', after: [] },
  lint: { command: 'npm run --silent lint', after: [] },
  typecheck: { command: 'npm run --silent typecheck', after: [] },
  build: { command: 'npm run --silent build', after: [] },
  size: { command: 'node scripts/check-size.mjs', after: ['build'] },
  // The zip tests call Info-ZIP's unzip: wait for the tools only when it is not installed yet.
  vitest: { command: 'npx vitest run', after: has('unzip') ? [] : ['tools'] },
  browser: { command: 'npx playwright test -c e2e/playwright.config.ts', after: ['tools', 'build'] },
};
// CI (.ci/run) also proves that a production install (no dev dependencies) of this build starts.
if (process.env.TEST_PRODUCTION_INSTALL === '1') {
  PARTS.production = { command: 'bash scripts/check-production-install.sh', after: ['build'] };
}

const asked = process.argv.slice(2);
for (const name of asked) {
  if (!(name in PARTS)) {
    console.error(`Unknown part "${name}". Parts: ${Object.keys(PARTS).join(', ')}`);
    process.exit(2);
  }
}
const wanted = new Set();
const want = (name) => {
  if (wanted.has(name)) return;
  wanted.add(name);
  PARTS[name].after.forEach(want);
};
(asked.length > 0 ? asked : Object.keys(PARTS)).forEach(want);

const started = Date.now();
const seconds = (from) => `${Math.round((Date.now() - from) / 1000)} s`;
/** name → Promise<boolean> (true when the part passed). */
const results = new Map();

function run(name) {
  if (results.has(name)) return results.get(name);
  const part = PARTS[name];
  const result = Promise.all(part.after.map(run)).then((passed) => {
    if (passed.includes(false)) {
      console.log(`- ${name}: not run (${part.after.filter((_, i) => !passed[i]).join(', ')} failed)`);
      return false;
    }
    return new Promise((resolve) => {
      const from = Date.now();
      const file = path.join(logs, `${name}.log`);
      const out = fs.openSync(file, 'w');
      console.log(`▶ ${name}: ${part.command}`);
      const child = spawn(part.command, { cwd: root, shell: true, stdio: ['ignore', out, out] });
      child.on('close', (code, signal) => {
        fs.closeSync(out);
        const passed = code === 0;
        const log = fs.readFileSync(file, 'utf8').trimEnd();
        console.log(
          `\n${passed ? '✔' : '✘'} ${name} ${passed ? 'passed' : `failed (${signal ?? `exit ${code}`})`} in ${seconds(from)}`,
        );
        if (log) console.log(log.replace(/^/gm, '  '));
        resolve(passed);
      });
    });
  });
  results.set(name, result);
  return result;
}

const outcome = await Promise.all([...wanted].map(async (name) => [name, await run(name)]));
const failed = outcome.filter(([, passed]) => !passed).map(([name]) => name);
fs.rmSync(logs, { recursive: true, force: true });
console.log(
  failed.length === 0
    ? `\nnpm test: every part passed in ${seconds(started)}`
    : `\nnpm test: ${failed.join(', ')} failed (${seconds(started)})`,
);
process.exit(failed.length === 0 ? 0 : 1);
