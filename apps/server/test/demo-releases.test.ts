import { beforeAll, describe, expect, it } from 'vitest';
import { TIERS } from '@keyport/shared/domain/tiers';
import { releases } from '../src/db/schema';
import { seedDemoData } from '../src/db/seed';
import { createTestApp, type TestApp } from './helpers/test-app';
import { useDataDir } from './helpers/releases';
import { expectUnzipTestPasses, listEntries, unzipFile } from './helpers/theme-zip';

const dataDir = useDataDir('demo-releases');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir() });
  await seedDemoData(t.app.services, t.app.log);
});

describe('the seeded demo themes', () => {
  it('are two releases per edition (4.1.0 and 4.2.0) with the theme at the zip root, as Shopify uploads it', async () => {
    const rows = await t.app.services.db.query.releases.findMany();
    expect(rows.map((row) => `${row.edition} ${row.version}`).sort()).toEqual(
      TIERS.flatMap((tier) => [`${tier} 4.1.0`, `${tier} 4.2.0`]).sort(),
    );
    for (const row of rows) {
      const file = await t.app.services.storage.localPath(row.storageKey);
      await expectUnzipTestPasses(file);
      const names = (await listEntries(file)).map((entry) => entry.fileName);
      for (const required of ['layout/theme.liquid', 'templates/index.json', 'config/settings_data.json']) {
        expect(names, row.edition).toContain(required);
      }
      expect(Object.keys(row.manifest ?? {}).sort()).toEqual(names.filter((name) => !name.endsWith('/')).sort());
      const topLevel = new Set(names.map((name) => name.split('/')[0]));
      expect([...topLevel].sort(), row.edition).toEqual(
        ['assets', 'config', 'layout', 'locales', 'sections', 'snippets', 'templates'].sort(),
      );
    }
  });
});

describe('the two demo versions differ as a theme upgrade must handle', () => {
  it('renames a setting, removes a section and adds a block type', async () => {
    const rows = await t.app.services.db.query.releases.findMany();
    const release = (version: string) => rows.find((row) => row.edition === 'PRO' && row.version === version)!;
    expect(Object.keys(release('4.1.0').manifest!)).toContain('sections/announcement-bar.liquid');
    expect(Object.keys(release('4.2.0').manifest!)).not.toContain('sections/announcement-bar.liquid');
    const text = async (version: string, name: string) =>
      (await unzipFile(await t.app.services.storage.localPath(release(version).storageKey), name)).toString('utf8');
    expect(await text('4.1.0', 'config/settings_schema.json')).toContain('"color_primary"');
    expect(await text('4.2.0', 'config/settings_schema.json')).toContain('"color_accent"');
    expect(await text('4.1.0', 'sections/featured.liquid')).not.toContain('"quote"');
    expect(await text('4.2.0', 'sections/featured.liquid')).toContain('"quote"');
  });

  it('4.2.0 carries the rename as its migration map (every edition); a data directory seeded before gets it', async () => {
    const rows = await t.app.services.db.query.releases.findMany();
    for (const row of rows) {
      expect(row.migrationMap, `${row.edition} ${row.version}`).toEqual(
        row.version === '4.2.0' ? { settings: { color_primary: 'color_accent' } } : null,
      );
    }
    await t.db.update(releases).set({ migrationMap: null });
    await seedDemoData(t.app.services, t.app.log);
    const again = await t.app.services.db.query.releases.findMany();
    expect(again.filter((row) => row.migrationMap !== null).map((row) => row.version)).toEqual([
      '4.2.0',
      '4.2.0',
      '4.2.0',
    ]);
  });
});
