// Node support check (part of `npm test`): every package in the lockfile must accept the oldest Node the root's
// `engines.node` promises (">=20.19" → 20.19.0) and the Node running this check. An installed package is judged by
// its own package.json; one not installed here (another platform's optional binary) by the lockfile's copy of its
// `engines`. A package that needs a newer Node fails the check: pin a version that supports the promise with an
// `overrides` entry in the root package.json, or raise the promise (and the README) together with this check.
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';

const root = path.resolve(import.meta.dirname, '..');
const rootPackage = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const promised = rootPackage.engines?.node;
if (!promised || !semver.validRange(promised)) {
  console.error('The root package.json must promise a Node range in engines.node');
  process.exit(1);
}
const oldest = semver.minVersion(promised).version;
const current = process.version.slice(1);
const nodes = semver.satisfies(current, promised) ? [oldest, current] : [oldest];

const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const problems = [];
let checked = 0;
for (const [location, entry] of Object.entries(lock.packages ?? {})) {
  if (!location.includes('node_modules/') || entry.link) continue;
  const manifestPath = path.join(root, location, 'package.json');
  const installed = fs.existsSync(manifestPath);
  const manifest = installed ? JSON.parse(fs.readFileSync(manifestPath, 'utf8')) : entry;
  checked += 1;
  const range = typeof manifest.engines === 'object' ? manifest.engines?.node : undefined;
  if (!range) continue;
  if (!semver.validRange(range)) {
    problems.push(`${location}: engines.node "${range}" is not a valid range`);
    continue;
  }
  const refused = nodes.filter((version) => !semver.satisfies(version, range, { includePrerelease: true }));
  if (refused.length > 0) {
    const version = manifest.version ?? entry.version ?? '?';
    problems.push(
      `${location.replace(/^.*node_modules\//, '')}@${version} (${location}): engines.node "${range}" excludes Node ${refused.join(', ')}`,
    );
  }
}

if (problems.length > 0) {
  console.error(`Packages that exclude Node ${nodes.join(' or ')} (the root promises "${promised}"):`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error('Pin a version that supports the promised range with "overrides" in the root package.json.');
  process.exit(1);
}
console.log(`engines: ${checked} packages accept Node ${nodes.join(' and ')} (root promises "${promised}")`);
