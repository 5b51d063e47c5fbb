import { describe, expect, it } from 'vitest';
import type { Tier } from '@keyport/shared/domain/tiers';
import { detectRelease, detectionReport, type KnownRelease } from './detect-release';

const release = (id: number, edition: Tier, version: string, manifest: Record<string, string>): KnownRelease => ({
  id,
  edition,
  version,
  themeName: 'Dawn',
  manifest,
  zipPath: async () => `/releases/${id}.zip`,
});
const files = (count: number, tag: string) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`snippets/f${index}.liquid`, `${tag}${index}`]));

describe('detectRelease', () => {
  const v12 = release(1, 'LITE', '12.0.0', files(10, 'a'));
  const v14 = release(2, 'LITE', '14.0.0', {
    ...files(10, 'a'),
    'snippets/f0.liquid': 'b0',
    'snippets/f1.liquid': 'b1',
  });

  it('picks the release with the most identical files, whatever version the theme states', () => {
    const exported = { ...v14.manifest, 'snippets/mine.liquid': 'm' };
    const detection = detectRelease(exported, [v14, v12], { statedVersion: '12.0.0', preferredEditions: ['LITE'] });
    expect(detection).toMatchObject({
      release: v14,
      identical: 10,
      releaseFiles: 10,
      exportFiles: 11,
      confident: true,
    });
    expect(detectionReport(detection)).toMatchObject({
      release: { edition: 'LITE', version: '14.0.0', theme_name: 'Dawn' },
      summary:
        '10 of 10 files identical to Dawn 14.0.0 (LITE). Your theme states version 12.0.0; its files are 14.0.0.',
    });
  });

  it('breaks a tie by the stated version, then by the export’s edition, then by the order given (newest first)', () => {
    const same = files(10, 'a');
    const lite = release(1, 'LITE', '14.0.0', same);
    const regular = release(2, 'REGULAR', '14.0.0', same);
    const newer = release(3, 'REGULAR', '15.0.0', same);
    const pick = (statedVersion: string | null, preferredEditions: Tier[]) =>
      detectRelease(same, [newer, regular, lite], { statedVersion, preferredEditions }).release?.id;
    expect(pick('14.0.0', ['LITE', 'REGULAR'])).toBe(1);
    expect(pick('14.0.0', ['REGULAR', 'LITE'])).toBe(2);
    expect(pick(null, ['LITE'])).toBe(1);
    expect(pick(null, [])).toBe(3);
  });

  it('is not confident below half of a release’s files, and says so', () => {
    const exported = { ...files(4, 'a'), ...files(20, 'z') };
    const detection = detectRelease(exported, [v12], { statedVersion: null, preferredEditions: [] });
    expect(detection).toMatchObject({ identical: 0, confident: false });
    const partial = detectRelease(files(4, 'a'), [v12], { statedVersion: null, preferredEditions: [] });
    expect(partial).toMatchObject({ identical: 4, releaseFiles: 10, confident: false });
    expect(detectionReport(partial)).toMatchObject({
      release: null,
      confident: false,
      summary:
        'No release matches your theme closely enough (the closest: 4 of 10 files identical to Dawn 12.0.0 (LITE)): it was merged with the new version two ways.',
    });
    expect(detectionReport(detectRelease({}, [], { statedVersion: '1.0.0', preferredEditions: [] }))).toMatchObject({
      release: null,
      summary: 'No stored release to compare your theme with: it was merged with the new version two ways.',
    });
  });
});
