// `npm run bench:theme-update`: the theme-file update engine (apps/server/src/lib/theme-update, ADR 039) on
//  1. a real-size theme: a customised export of Shopify's Dawn 14.0.0 (~300 files; ../shared/fixtures/themes) onto
//     Dawn 15.3.0, with Dawn 12.0.0, 14.0.0 and 15.3.0 stored as releases to detect it among (skipped, with a message,
//     when ../shared is absent);
//  2. a 50 MB export: the demo theme's LITE 1.0.0 with 50 MB of media, customised, onto REGULAR 2.0.0 (50 MB too).
// Each against the download path in the same process as the baseline: the same target release with the token
// written in (createTokenizedThemeZip) streamed to a file. Releases come with their manifests, as the server has them
// (stored at upload). Median of 5 trials after a warm-up; peak RSS growth during an upgrade. Goals (issue 20): Dawn
// ≤ 1 s, 50 MB ≤ 2 s, RSS growth ≤ 64 MB. Results go to docs/performance.md.
//
// The measurements run in a fresh child process (`--measure`), so the fixture generation's memory does not count.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const root = path.resolve(import.meta.dirname, '..');
const MB = 1_000_000;
const MEDIA_BYTES = 50 * MB;
const TRIALS = 5;
const GOALS = { dawn: 1000, large: 2000 };
const RSS_GOAL = 64 * MB;
const src = (file) => path.join(root, 'apps/server/src', file);
const testHelper = (file) => path.join(root, 'apps/server/test/helpers', file);

const mode = process.argv[2];
if (mode === '--measure') {
  await measure(process.argv[3]);
} else if (mode === '--fixtures') {
  await makeFixtures(process.argv[3]);
} else if (mode === undefined) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-upgrade-'));
  try {
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs. Preparing the releases and the store exports…`);
    // Each step runs once, in its own child process with an explicit mode (the children never start more).
    execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--fixtures', work], {
      cwd: root,
      stdio: 'inherit',
    });
    execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', import.meta.filename, '--measure', work], {
      cwd: root,
      stdio: 'inherit',
    });
  } catch (error) {
    process.exitCode = typeof error.status === 'number' ? error.status : 1;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
} else {
  throw new Error(`Unknown mode ${mode}`);
}

/** Writes each case's zips and a `case.json`: the releases (with manifests), the target, the export. */
async function makeFixtures(work) {
  const { generateThemeZip } = await import(src('db/demo-theme.ts'));
  const { computeThemeManifest } = await import(src('lib/theme-zip/manifest.ts'));
  const { DEFAULT_THEME_ZIP_LIMITS } = await import(src('lib/theme-zip/scan.ts'));
  const fixtures = await import(src('lib/theme-update/fixtures.test-helpers.ts'));
  const dawn = await import(testHelper('dawn.ts'));
  const release = async (zipPath, edition, version, id, themeName) => ({
    id,
    edition,
    version,
    themeName,
    zipPath,
    manifest: await computeThemeManifest(zipPath, DEFAULT_THEME_ZIP_LIMITS),
  });
  const cases = [];
  if (dawn.HAS_DAWN) {
    const merchant = await dawn.customiseDawn(dawn.dawnZip('14.0.0'), path.join(work, 'dawn-export.zip'));
    const releases = [
      await release(dawn.dawnZip('15.3.0'), 'REGULAR', '15.3.0', 3, 'Dawn'),
      await release(dawn.dawnZip('14.0.0'), 'REGULAR', '14.0.0', 2, 'Dawn'),
      await release(dawn.dawnZip('12.0.0'), 'REGULAR', '12.0.0', 1, 'Dawn'),
    ];
    cases.push({ name: 'dawn', label: 'Dawn 14.0.0 → 15.3.0', merchant, releases, target: releases[0] });
  } else {
    console.log(`Dawn case ${dawn.NO_DAWN_MESSAGE}`);
  }
  const original = path.join(work, 'original.zip');
  await generateThemeZip(original, { ...fixtures.originalOptions('LITE'), paddingBytes: MEDIA_BYTES });
  const target = path.join(work, 'target.zip');
  await generateThemeZip(target, { ...fixtures.targetOptions('REGULAR'), paddingBytes: MEDIA_BYTES });
  const merchant = await fixtures.deriveZip(original, path.join(work, 'merchant.zip'), {
    'config/settings_data.json': fixtures.MERCHANT_SETTINGS,
    'templates/index.json': fixtures.MERCHANT_INDEX,
    'locales/en.default.json': fixtures.MERCHANT_LOCALE,
    'assets/custom.css': '.promo { color: red; }\n',
  });
  const releases = [
    await release(target, 'REGULAR', '2.0.0', 2, 'Aurora'),
    await release(original, 'LITE', '1.0.0', 1, 'Aurora'),
  ];
  cases.push({ name: 'large', label: '50 MB export (demo theme)', merchant, releases, target: releases[0] });
  for (const item of cases) {
    const size = (file) => `${(fs.statSync(file).size / MB).toFixed(1)} MB`;
    console.log(`  ${item.label}: export ${size(item.merchant)}, target ${size(item.target.zipPath)}`);
  }
  fs.writeFileSync(path.join(work, 'cases.json'), JSON.stringify(cases));
}

async function measure(work) {
  const { updateTheme } = await import(src('lib/theme-update/index.ts'));
  const { createTokenizedThemeZip } = await import(src('lib/theme-zip/theme-zip.ts'));
  const cases = JSON.parse(fs.readFileSync(path.join(work, 'cases.json'), 'utf8'));
  const rows = [];
  let ok = true;
  for (const item of cases) {
    const releases = item.releases.map((release) => ({ ...release, zipPath: async () => release.zipPath }));
    const upgradeOnce = async (index) => {
      const out = path.join(work, `upgraded-${item.name}-${index}.zip`);
      const result = await updateTheme({
        merchantZipPath: item.merchant,
        releases,
        target: { zipPath: item.target.zipPath, manifest: item.target.manifest },
        token: 'bench-token',
        outputPath: out,
      });
      fs.rmSync(out);
      fs.rmSync(`${out}.review.zip`, { force: true });
      return result;
    };
    const downloadOnce = async (index) => {
      const out = path.join(work, `download-${item.name}-${index}.zip`);
      const { stream } = await createTokenizedThemeZip(item.target.zipPath, 'bench-token');
      await pipeline(stream, fs.createWriteStream(out));
      fs.rmSync(out);
    };
    // Warm-up (module loading, JIT), then alternate the two kinds.
    const { report } = await upgradeOnce('warm');
    await downloadOnce('warm');
    const upgradeTimes = [];
    const upgradeCpu = [];
    const downloadTimes = [];
    const rssGrowths = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      globalThis.gc?.();
      const { ms, cpuMs, growth } = await timed(() => upgradeOnce(trial));
      upgradeTimes.push(ms);
      upgradeCpu.push(cpuMs);
      rssGrowths.push(growth);
      globalThis.gc?.();
      downloadTimes.push((await timed(() => downloadOnce(trial))).ms);
    }
    const upgradeMs = median(upgradeTimes);
    const downloadMs = median(downloadTimes);
    const rss = Math.max(...rssGrowths);
    const met = upgradeMs <= GOALS[item.name] && rss <= RSS_GOAL;
    ok &&= met;
    console.log(
      `${item.label}: ${report.detection.summary} ${report.summary.kept} kept, ${report.summary.moved} moved, ` +
        `${report.summary.review} to review, ${report.summary.dropped} dropped.`,
    );
    rows.push(
      `| ${item.label} | ${(fs.statSync(item.merchant).size / MB).toFixed(1)} MB | ${(upgradeMs / 1000).toFixed(2)} s | ` +
        `${(median(upgradeCpu) / 1000).toFixed(2)} s | ` +
        `${(downloadMs / 1000).toFixed(2)} s | ${(upgradeMs / downloadMs).toFixed(2)} | ${(rss / MB).toFixed(1)} MB | ` +
        `${met ? `met (≤ ${GOALS[item.name] / 1000} s, ≤ 64 MB)` : `MISSED (≤ ${GOALS[item.name] / 1000} s, ≤ 64 MB)`} |`,
    );
  }
  console.log('');
  console.log(
    '| Case | Export | Upgrade (median) | Upgrade CPU time (median) | Download of the target with token (median) | Ratio upgrade/download | Peak RSS growth (max) | Goal |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  if (!ok) process.exitCode = 1;
}

/** Wall time, CPU time (user + system, this process) and peak RSS growth (sampled every 2 ms) of one run. */
async function timed(run) {
  const baseline = process.memoryUsage.rss();
  const cpu = process.cpuUsage();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const start = performance.now();
  try {
    await run();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, growth: peak - baseline };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
