// `npm run bench:upgrade`: the theme-file upgrade engine (apps/server/src/lib/theme-upgrade) on a 50 MB merchant
// export (LITE 1.0.0 with customised settings, templates and locale, an added file, 50 MB of media) onto a 50 MB
// REGULAR 2.0.0 release, against the download path in the same process: the same target release with the token
// written in (createTokenizedThemeZip) streamed to a file. Reports the median time of each, the ratio upgrade/download,
// and the peak RSS growth during an upgrade (goals: ≤ 2 s, ≤ 64 MB). Bounded loops; results go to docs/performance.md.
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
const lib = (file) => path.join(root, 'apps/server/src', file);

const mode = process.argv[2];
if (mode === '--measure') {
  await measure(process.argv[3]);
} else if (mode === '--fixtures') {
  await makeFixtures(process.argv[3]);
} else if (mode === undefined) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'keyport-bench-upgrade-'));
  try {
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs. Generating the releases and the store export…`);
    // Each step runs once, in its own child process with an explicit mode (the children never start more).
    execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--fixtures', work], {
      cwd: root,
      stdio: 'inherit',
    });
    execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', import.meta.filename, '--measure', work], {
      cwd: root,
      stdio: 'inherit',
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
} else {
  throw new Error(`Unknown mode ${mode}`);
}

async function makeFixtures(work) {
  const { generateThemeZip } = await import(lib('db/demo-theme.ts'));
  const fixtures = await import(lib('lib/theme-upgrade/fixtures.test-helpers.ts'));
  const original = path.join(work, 'original.zip');
  await generateThemeZip(original, { ...fixtures.originalOptions('LITE'), paddingBytes: MEDIA_BYTES });
  await generateThemeZip(path.join(work, 'target.zip'), {
    ...fixtures.targetOptions('REGULAR'),
    paddingBytes: MEDIA_BYTES,
  });
  await fixtures.deriveZip(original, path.join(work, 'merchant.zip'), {
    'config/settings_data.json': fixtures.MERCHANT_SETTINGS,
    'templates/index.json': fixtures.MERCHANT_INDEX,
    'locales/en.default.json': fixtures.MERCHANT_LOCALE,
    'assets/custom.css': '.promo { color: red; }\n',
  });
  for (const name of ['original.zip', 'target.zip', 'merchant.zip']) {
    console.log(`  ${name}: ${(fs.statSync(path.join(work, name)).size / MB).toFixed(1)} MB`);
  }
}

async function measure(work) {
  const { upgradeTheme } = await import(lib('lib/theme-upgrade/index.ts'));
  const { createTokenizedThemeZip } = await import(lib('lib/theme-zip/theme-zip.ts'));
  const input = (outputPath) => ({
    merchantZipPath: path.join(work, 'merchant.zip'),
    originalZipPath: path.join(work, 'original.zip'),
    targetZipPath: path.join(work, 'target.zip'),
    token: 'bench-token',
    outputPath,
    expectedSourceEdition: 'LITE',
  });
  const upgradeOnce = async (index) => {
    const out = path.join(work, `upgraded-${index}.zip`);
    const report = await upgradeTheme(input(out));
    fs.rmSync(out);
    return report;
  };
  const downloadOnce = async (index) => {
    const out = path.join(work, `download-${index}.zip`);
    const { stream } = await createTokenizedThemeZip(path.join(work, 'target.zip'), 'bench-token');
    await pipeline(stream, fs.createWriteStream(out));
    fs.rmSync(out);
  };
  // Warm-up (module loading, JIT), then alternate the two kinds.
  const report = await upgradeOnce('warm');
  await downloadOnce('warm');
  const upgradeTimes = [];
  const downloadTimes = [];
  const rssGrowths = [];
  for (let trial = 0; trial < TRIALS; trial += 1) {
    globalThis.gc?.();
    const { ms, growth } = await timed(() => upgradeOnce(trial));
    upgradeTimes.push(ms);
    rssGrowths.push(growth);
    globalThis.gc?.();
    downloadTimes.push((await timed(() => downloadOnce(trial))).ms);
  }
  const upgradeMs = median(upgradeTimes);
  const downloadMs = median(downloadTimes);
  const merchantMb = fs.statSync(path.join(work, 'merchant.zip')).size / MB;
  console.log('');
  console.log(
    `Report: ${report.counts.settingsKept} settings kept, ${report.counts.settingsDropped} dropped, ` +
      `${report.counts.sectionsDropped} sections/blocks dropped, ${report.counts.filesAdded} files added, ` +
      `${report.counts.filesInOutput} entries written.`,
  );
  console.log(
    '| Merchant export | Upgrade (median) | Download of the target with token (median) | Ratio upgrade/download | Peak RSS growth (max) |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  console.log(
    `| ${merchantMb.toFixed(1)} MB | ${(upgradeMs / 1000).toFixed(2)} s | ${(downloadMs / 1000).toFixed(2)} s | ` +
      `${(upgradeMs / downloadMs).toFixed(2)} | ${(Math.max(...rssGrowths) / MB).toFixed(1)} MB |`,
  );
  const ok = upgradeMs <= 2000 && Math.max(...rssGrowths) <= 64 * MB;
  console.log(ok ? 'Goals met (≤ 2 s, ≤ 64 MB).' : 'GOALS MISSED (≤ 2 s, ≤ 64 MB).');
  if (!ok) process.exitCode = 1;
}

/** Wall time and peak RSS growth (sampled every 2 ms) of one run. */
async function timed(run) {
  const baseline = process.memoryUsage.rss();
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
  return { ms: performance.now() - start, growth: peak - baseline };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
