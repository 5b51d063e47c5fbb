import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffRelease } from '@keyport/shared/contracts/releases';
import { fakeApi, json } from '../../../test/fake-api';
import { FakeXhr } from '../../../test/fake-xhr';
import { ReleasesPage } from './releases-page';

const release = (id: number, version: string, current: boolean): StaffRelease => ({
  id,
  edition: 'PRO',
  version,
  notes: `Notes of ${version}`,
  theme_name: 'Aurora',
  size_bytes: 2 * 1024 * 1024,
  created_at: '2026-11-01T10:00:00.000Z',
  current,
  stores: id,
});

function Location() {
  const location = useLocation();
  return <p data-testid="location">{location.search}</p>;
}

function renderPage(url = '/staff/releases?edition=PRO') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route
            path="/staff/releases"
            element={
              <>
                <ReleasesPage />
                <Location />
              </>
            }
          />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

describe('the releases page', () => {
  it("lists the edition's versions with the current one marked; make current asks for a reason", async () => {
    const api = fakeApi({
      'GET /staff/releases': () =>
        json(200, { releases: [release(2, '5.1.0', true), release(1, '5.0.0', false)], current_chosen: false }),
      'POST /staff/releases/1/make-current': () => json(200, { release: release(1, '5.0.0', true) }),
    });
    const user = renderPage();
    const table = await screen.findByRole('table', { name: 'Versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      '5.1.0 Current (newest)',
      '5.0.0 ',
    ]);
    expect(within(rows[0]!).getByText('2.0 MB')).toBeTruthy();
    expect(within(rows[0]!).getByRole('button', { name: 'Make 5.1.0 current' })).toHaveProperty('disabled', true);

    await user.click(within(rows[1]!).getByRole('button', { name: 'Make 5.0.0 current' }));
    const dialog = screen.getByRole('dialog', { name: 'Make PRO 5.0.0 current?' });
    expect(dialog.textContent).toContain('will download 5.0.0 instead of 5.1.0');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Roll back the cart bug');
    await user.click(within(dialog).getByRole('button', { name: 'Make current' }));
    await waitFor(() => expect(api.callsTo('POST', '/staff/releases/1/make-current')).toHaveLength(1));
    expect(api.callsTo('POST', '/staff/releases/1/make-current')[0]!.body).toEqual({
      reason: 'Roll back the cart bug',
    });
  });

  it('opens a release: its files and the stores running it, each seen by a download or a license check-in', async () => {
    fakeApi({
      'GET /staff/releases': () => json(200, { releases: [release(2, '5.1.0', true)], current_chosen: false }),
      'GET /staff/releases/2': () =>
        json(200, {
          release: release(2, '5.1.0', true),
          manifest: [{ path: 'layout/theme.liquid', sha256: 'a'.repeat(64) }],
          migration_map: null,
          stores: [
            { key_id: 7, store: 'aurora-outfitters.com', seen_at: '2026-11-25T09:00:00.000Z', seen_by: 'check-in' },
            { key_id: 8, store: null, seen_at: '2026-11-20T09:00:00.000Z', seen_by: 'download' },
          ],
        }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Files of 5.1.0' }));
    const detail = await screen.findByRole('region', { name: 'PRO 5.1.0: 1 files' });
    const stores = within(detail)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(stores).toEqual([
      'aurora-outfitters.com (key #7, checked in 2026-11-25)',
      'Not connected (key #8, downloaded 2026-11-20)',
    ]);
    expect(within(detail).getByRole('table', { name: 'Files of 5.1.0' }).textContent).toContain('layout/theme.liquid');
    // The files scroll in a box of their own: a keyboard can reach it to scroll it.
    expect(within(detail).getByRole('region', { name: 'Files of 5.1.0' })).toHaveAttribute('tabindex', '0');
    expect(within(detail).getByText(/^None: theme-file upgrades to this version rename nothing/)).toBeTruthy();
  });

  it('shows the migration map uploaded with a release, rename by rename', async () => {
    fakeApi({
      'GET /staff/releases': () => json(200, { releases: [release(3, '6.0.0', true)], current_chosen: false }),
      'GET /staff/releases/3': () =>
        json(200, {
          release: release(3, '6.0.0', true),
          manifest: [],
          migration_map: {
            settings: { color_primary: 'color_accent' },
            sections: { banner: { type: 'image-banner', blocks: { link: { type: 'button' } } } },
          },
          stores: [],
        }),
    });
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Files of 6.0.0' }));
    const detail = await screen.findByRole('region', { name: 'PRO 6.0.0: 0 files' });
    expect(within(detail).getByRole('heading', { name: 'Migration map (3 renames)' })).toBeTruthy();
    const renames = within(within(detail).getByRole('list', { name: 'Renames of 6.0.0' })).getAllByRole('listitem');
    expect(renames.map((item) => item.textContent)).toEqual([
      'Setting: color_primary → color_accent',
      'Section type: banner → image-banner',
      'Section banner block type: link → button',
    ]);
  });

  it('keeps the edition in the URL', async () => {
    fakeApi({ 'GET /staff/releases': () => json(200, { releases: [], current_chosen: false }) });
    const user = renderPage();
    expect(await screen.findByText('No release of this edition yet.')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'LITE' }));
    expect(screen.getByTestId('location').textContent).toBe('?edition=LITE');
  });

  it('after a LITE upload from the default (PRO) tab, shows the LITE tab with the new release; the form stays on LITE', async () => {
    fakeApi({
      'GET /staff/releases': () => json(200, { releases: [], current_chosen: false }),
      'GET /staff/releases/9': () =>
        json(200, { release: { ...release(9, '4.3.0', false), edition: 'LITE' }, manifest: [], stores: [] }),
    });
    const user = renderPage('/staff/releases');
    await screen.findByText('No release of this edition yet.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Edition' }), 'LITE');
    await user.type(screen.getByRole('textbox', { name: 'Version' }), '4.3.0');
    await user.type(screen.getByRole('textbox', { name: 'Reason (recorded in the audit log)' }), 'LITE 4.3');
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'lite.zip', { type: 'application/zip' });
    await user.upload(screen.getByLabelText('Theme zip'), zip);
    await user.click(screen.getByRole('button', { name: 'Upload release' }));
    FakeXhr.last!.answer(201, { release: { ...release(9, '4.3.0', false), edition: 'LITE' } });

    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'LITE 4.3.0 is uploaded.');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('?edition=LITE&release=9'));
    expect(screen.getByRole('tab', { name: 'LITE' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('combobox', { name: 'Edition' })).toHaveProperty('value', 'LITE');
  });

  it('uploads with a progress bar and shows the problem the server names', async () => {
    fakeApi({ 'GET /staff/releases': () => json(200, { releases: [], current_chosen: false }) });
    const user = renderPage();
    await screen.findByText('No release of this edition yet.');
    await user.type(screen.getByRole('textbox', { name: 'Version' }), '6.0.0');
    const zip = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'aurora.zip', { type: 'application/zip' });
    await user.upload(screen.getByLabelText('Theme zip'), zip);
    await user.click(screen.getByRole('button', { name: 'Upload release' }));
    expect(screen.getByRole('alert').textContent).toBe('Give a reason (at least 3 characters)');
    expect(FakeXhr.last).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Reason (recorded in the audit log)' }), 'New mega menu');
    const mapInput = screen.getByLabelText('Migration map (optional)');
    const map = '{"settings": {"color_primary": "color_accent"}}';
    await user.upload(mapInput, new File([map], 'renames.json', { type: 'application/json' }));
    await user.click(screen.getByRole('button', { name: 'Upload release' }));
    await waitFor(() => expect(FakeXhr.last).not.toBeNull());
    const xhr = FakeXhr.last!;
    expect([xhr.method, xhr.url]).toEqual(['POST', '/staff/releases']);
    expect(Object.fromEntries([...xhr.form!.entries()].filter(([name]) => name !== 'file'))).toEqual({
      edition: 'PRO',
      version: '6.0.0',
      notes: '',
      reason: 'New mega menu',
      migration_map: map,
    });
    xhr.progress(40, 100);
    expect(await screen.findByRole('progressbar', { name: 'Uploading… 40%' })).toHaveProperty('ariaValueNow', '40');
    expect(screen.getByRole('button', { name: 'Uploading…' })).toHaveProperty('disabled', true);
    xhr.answer(400, { error: 'This zip has no layout/theme.liquid.', code: 'not_a_theme' });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Not a Shopify themeThis zip has no layout/theme.liquid.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
