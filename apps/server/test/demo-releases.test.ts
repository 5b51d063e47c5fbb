import { beforeAll, describe, expect, it } from 'vitest';
import { TIERS } from '@keyport/shared/domain/tiers';
import { seedDemoData } from '../src/db/seed';
import { createTestApp, type TestApp } from './helpers/test-app';
import { useDataDir } from './helpers/releases';
import { expectUnzipTestPasses, listEntries } from './helpers/theme-zip';

const dataDir = useDataDir('demo-releases');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir() });
  await seedDemoData(t.app.services, t.app.log);
});

describe('the seeded demo themes', () => {
  it('are one release per edition with the theme at the zip root, as Shopify uploads it', async () => {
    const rows = await t.app.services.db.query.releases.findMany();
    expect(rows.map((row) => row.edition).sort()).toEqual([...TIERS].sort());
    for (const row of rows) {
      const file = await t.app.services.storage.localPath(row.storageKey);
      await expectUnzipTestPasses(file);
      const names = (await listEntries(file)).map((entry) => entry.fileName);
      for (const required of ['layout/theme.liquid', 'templates/index.json', 'config/settings_data.json']) {
        expect(names, row.edition).toContain(required);
      }
      const topLevel = new Set(names.map((name) => name.split('/')[0]));
      expect([...topLevel].sort(), row.edition).toEqual(
        ['assets', 'config', 'layout', 'locales', 'sections', 'snippets', 'templates'].sort(),
      );
    }
  });
});
