import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { at, fakeApi, json, LITE, renderRoutes, runOf } from '../test/fake-api';
import { ThemeUpgradeRuns } from './theme-upgrade-runs';

afterEach(() => vi.unstubAllGlobals());

describe("a key's theme upgrade runs", () => {
  it('lists runs with their files while kept, and says when they expired', async () => {
    const calls = fakeApi({
      'GET /theme-upgrades': () =>
        json(200, {
          runs: [
            runOf(),
            runOf({ id: 40, download_url: null, report_json_url: null, report_html_url: null, review_url: null }),
          ],
        }),
    });
    renderRoutes([at('/', <ThemeUpgradeRuns licenseKey={LITE.api_key} />)], '/');
    const list = await screen.findByRole('list');
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('LITE 1.0.0 → REGULAR 1.1.0')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Download theme' })).toBeEnabled();
    expect(within(rows[1]!).getByText('Files expired')).toBeInTheDocument();
    expect(calls).toEqual([`GET /theme-upgrades?key=${LITE.api_key}`]);
  });

  it('says when there are none', async () => {
    fakeApi({ 'GET /theme-upgrades': () => json(200, { runs: [] }) });
    renderRoutes([at('/', <ThemeUpgradeRuns licenseKey={LITE.api_key} />)], '/');
    expect(await screen.findByText('No theme upgrades for this key yet.')).toBeInTheDocument();
  });
});
