import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { at, fakeApi, json, LITE, renderRoutes, runOf } from '../test/fake-api';
import { ThemeFileUpdateRuns } from './theme-file-update-runs';

afterEach(() => vi.unstubAllGlobals());

describe("a key's theme upgrade runs", () => {
  it('lists runs with their files while kept, and says when they expired', async () => {
    const calls = fakeApi({
      'GET /theme-file-updates': () =>
        json(200, {
          runs: [
            runOf(),
            runOf({ id: 40, download_url: null, report_json_url: null, report_html_url: null, review_url: null }),
          ],
        }),
    });
    renderRoutes([at('/', <ThemeFileUpdateRuns licenseKey={LITE.api_key} />)], '/');
    const list = await screen.findByRole('list');
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('LITE 1.0.0 → REGULAR 1.1.0')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Download theme' })).toBeEnabled();
    expect(within(rows[1]!).getByText('Files expired')).toBeInTheDocument();
    expect(calls).toEqual([`GET /theme-file-updates?key=${LITE.api_key}`]);
  });

  it('a run in progress links to its progress; a cancelled one says so', async () => {
    fakeApi({
      'GET /theme-file-updates': () =>
        json(200, {
          runs: [
            runOf({ id: 42, status: 'running', phase: 'merge', progress: { done: 1, total: 2 }, report: null }),
            runOf({
              id: 43,
              status: 'cancelled',
              report: null,
              download_url: null,
              error: { code: 'cancelled', message: 'Upgrade cancelled. Nothing was changed.' },
            }),
          ],
        }),
    });
    renderRoutes([at('/', <ThemeFileUpdateRuns licenseKey={LITE.api_key} />)], '/');
    const rows = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(within(rows[0]!).getByRole('link', { name: 'See progress' })).toHaveAttribute(
      'href',
      '/customer/upgrade_file/lite-to-reg?run=42',
    );
    expect(within(rows[0]!).getByText(/In progress/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/Cancelled/)).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    fakeApi({ 'GET /theme-file-updates': () => json(200, { runs: [] }) });
    renderRoutes([at('/', <ThemeFileUpdateRuns licenseKey={LITE.api_key} />)], '/');
    expect(await screen.findByText('No theme upgrades for this key yet.')).toBeInTheDocument();
  });
});
