import { screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LicenseSighting } from '@keyport/shared/contracts/licenses';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { reportsText, SightingsPage } from './sightings-page';

afterEach(() => vi.unstubAllGlobals());

const SIGHTING: LicenseSighting = {
  domain: 'cheap-copies.example',
  checkins: 2048,
  first_seen_at: '2026-11-01T10:00:00Z',
  last_seen_at: '2026-11-23T09:30:00Z',
  versions: ['4.2.0 PRO', '4.1.0 PRO'],
  keys: [
    { id: 12, owner_email: 'mia@example.com' },
    { id: 40, owner_email: null },
  ],
  reports: { pending: 2, approved: 1, rejected: 0 },
};

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}

const renderPage = (url: string) => renderStaffPage('/staff/sightings', <SightingsPage />, url, <Location />);

describe('the license sightings page', () => {
  it('lists each domain with its check-ins, dates, versions, keys and reports; searches and pages through the URL', async () => {
    const api = fakeApi({
      'GET /staff/license-sightings': () => json(200, { sightings: [SIGHTING], next_cursor: 'c2' }),
    });
    const user = renderPage('/staff/sightings');
    const table = await screen.findByRole('table', { name: 'License sightings' });
    const row = (await within(table).findByText('cheap-copies.example')).closest('tr')!;
    expect(within(row).getByText('2,048')).toBeTruthy();
    expect(within(row).getByText('Nov 1, 2026, 10:00 AM')).toHaveAttribute('datetime', SIGHTING.first_seen_at);
    expect(row.textContent).toContain('4.2.0 PRO, 4.1.0 PRO');
    expect(within(row).getByRole('link', { name: 'mia@example.com' })).toHaveAttribute(
      'href',
      '/staff/customers?q=mia%40example.com',
    );
    expect(within(row).getByText('no owner')).toBeTruthy();
    expect(within(row).getByText('2 pending · 1 approved')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'cheap');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByTestId('location').textContent).toBe('?q=cheap');
    await within(await screen.findByRole('table', { name: 'License sightings' })).findByText('cheap-copies.example');
    await user.click(screen.getByRole('button', { name: /Next/ }));
    expect(screen.getByTestId('location').textContent).toContain('cursor=c2');
    await screen.findByText('cheap-copies.example');
    const queries = api.calls.map((call) => call.path);
    expect(queries.every((path) => path === '/staff/license-sightings')).toBe(true);
  });

  it('says so when nothing matches', async () => {
    fakeApi({ 'GET /staff/license-sightings': () => json(200, { sightings: [], next_cursor: null }) });
    renderPage('/staff/sightings?q=nowhere.example');
    expect(await screen.findByText('No sighting matches “nowhere.example”.')).toBeTruthy();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    fakeApi({ 'GET /staff/license-sightings': () => json(500, { error: 'Internal Server Error', code: 'internal' }) });
    renderPage('/staff/sightings');
    expect(await screen.findByRole('button', { name: /Try again|Retry/ })).toBeTruthy();
  });
});

describe('reportsText', () => {
  it.each([
    [{ pending: 0, approved: 0, rejected: 0 }, 'None'],
    [{ pending: 1, approved: 0, rejected: 3 }, '1 pending · 3 rejected'],
  ])('%o → %s', (reports, text) => expect(reportsText(reports)).toBe(text));
});
