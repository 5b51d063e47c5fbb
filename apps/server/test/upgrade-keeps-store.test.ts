import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import {
  claimNewKey,
  getReleaseLink,
  issueThemeToken,
  makeThemeZip,
  newCustomer,
  newStaff,
  uploadRelease,
  useDataDir,
} from './helpers/releases';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import { unzipFile } from './helpers/theme-zip';

// ADR 014: an upgrade never breaks a live store. The token pasted in the theme keeps working; the new tier reaches the
// theme with the next download (or token).
const dataDir = useDataDir('upgrade-keeps-store');
let t: TestApp;
let staffToken: string;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir(), PUBLIC_URL: 'http://portal.test' });
  staffToken = (await newStaff(t)).token;
  for (const edition of ['LITE', 'REGULAR'] as const) {
    const zip = await makeThemeZip(dataDir(), { edition });
    const uploaded = await uploadRelease(t, staffToken, { edition, version: '4.2.0' }, { content: zip.bytes });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
  }
});

describe('an upgraded key', () => {
  it('keeps its theme token valid, and its next download carries a token for the new tier', async () => {
    const customer = await newCustomer(t, 'upgrader');
    const { apiKey } = await claimNewKey(t, customer.token, 'LITE');
    const liveToken = await issueThemeToken(t, customer.token, apiKey);
    expect(decodeJwt(liveToken)).toMatchObject({ tier: 'LITE' });

    const minted = await t.app.inject({
      method: 'POST',
      url: '/staff/upgrade-tokens',
      headers: auth(staffToken),
      payload: { path: 'LITE_TO_REGULAR', count: 1, reason: 'test batch' },
    });
    const [upgradeKey] = minted.json<{ tokens: string[] }>().tokens;
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/keys/upgrade/regular',
      headers: auth(customer.token),
      payload: { upgradeKey, licenseKey: apiKey },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);

    // The store's token still verifies.
    // Its subject is the key's opaque id, never the license key (ADR 030).
    const subject = decodeJwt(liveToken).sub;
    expect(subject).not.toBe(apiKey);
    expect(await t.app.services.themeTokens.verify(liveToken)).toMatchObject({ sub: subject, tier: 'LITE' });

    // The next download is of the REGULAR edition, with a REGULAR token of the same version written in.
    const link = await getReleaseLink(t, customer.token, apiKey);
    const download = await t.app.inject({
      method: 'POST',
      url: '/api/download-with-token',
      headers: { ...auth(customer.token), host: 'portal.test' },
      payload: { downloadUrl: link.download_link, token: liveToken },
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-disposition']).toContain('-regular-4.2.0.zip');
    const saved = path.join(dataDir(), 'upgraded.zip');
    await writeFile(saved, download.rawPayload);
    const settingsText = (await unzipFile(saved, 'config/settings_data.json')).toString('utf8');
    const written = /"license_token"\s*:\s*"([^"]+)"/.exec(settingsText)?.[1];
    expect(written).toBeDefined();
    expect(written).not.toBe(liveToken);
    expect(decodeJwt(written!)).toMatchObject({ sub: subject, tier: 'REGULAR', ver: decodeJwt(liveToken).ver });
    expect(await t.app.services.themeTokens.verify(written!)).toMatchObject({ tier: 'REGULAR' });
    // Both tokens of that version stay valid: the store's, and the one in the new download.
    expect(await t.app.services.themeTokens.verify(liveToken)).not.toBeNull();
  });
});
