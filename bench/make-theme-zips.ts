// Writes the benchmark's theme zips with the server's own generator (run through tsx by bench/download.mjs):
//   node --import tsx bench/make-theme-zips.ts <outDir> LITE:5 REGULAR:50 PRO:250
// Each argument is an edition and a size in MB (10^6 bytes) of random, incompressible assets.
import path from 'node:path';
import type { Tier } from '@keyport/shared/domain/tiers';
import { generateThemeZip } from '../apps/server/src/db/demo-theme';

const [outDir, ...specs] = process.argv.slice(2);
if (!outDir || specs.length === 0) throw new Error('usage: make-theme-zips.ts <outDir> <EDITION:MB>…');
for (const spec of specs) {
  const [edition, megabytes] = spec.split(':');
  const file = path.join(outDir, `${edition!.toLowerCase()}.zip`);
  const zip = await generateThemeZip(file, {
    edition: edition as Tier,
    version: '9.0.0',
    themeName: 'Aurora',
    paddingBytes: Number(megabytes) * 1_000_000,
  });
  console.log(`${file} ${zip.bytes} bytes, ${zip.entryCount} entries`);
}
