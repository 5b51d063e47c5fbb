import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KeyHealth } from '@keyport/shared/contracts/licenses';
import { deferred, fakeApi, json } from '../../../test/fake-api';
import { HEALTH_TEXT, KeyHealthPanel } from './key-health';

afterEach(() => vi.unstubAllGlobals());

const NOW = new Date('2026-11-23T12:00:00Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3600_000).toISOString();

const health = (overrides: Partial<KeyHealth> = {}): KeyHealth => ({
  key_id: 5,
  last_checkin_at: hoursAgo(3),
  domain: 'harbor-goods.myshopify.com',
  theme_version: '4.2.0',
  theme_edition: 'PRO',
  latest_version: '4.2.0',
  update_available: false,
  mismatch: null,
  ...overrides,
});

function renderPanel(keyId = 5) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <KeyHealthPanel keyId={keyId} cardLabel="harbor-goods" now={NOW} />
    </QueryClientProvider>,
  );
  return screen.getByRole('region', { name: 'License health of harbor-goods' });
}

describe("a key card's license health", () => {
  it('keeps its two lines while loading (no layout shift), then shows the last check-in and the version', async () => {
    const answer = deferred();
    fakeApi({ 'GET /keys/health': () => answer.promise });
    const panel = renderPanel();
    expect(panel).toHaveClass('min-h-10');
    expect(panel.querySelector('[aria-busy="true"]')).not.toBeNull();
    answer.resolve(json(200, [health({ key_id: 9, last_checkin_at: null }), health()]));
    expect(await within(panel).findByText('Checked in 3 hours ago')).toHaveAttribute('datetime', hoursAgo(3));
    expect(within(panel).getByText('Version 4.2.0 (latest)')).toBeInTheDocument();
    expect(within(panel).queryByText(/Update available/)).toBeNull();
    expect(within(panel).queryByRole('note')).toBeNull();
    expect(panel.querySelector('[aria-busy]')).toBeNull();
  });

  it('says when the theme has not checked in yet', async () => {
    fakeApi({
      'GET /keys/health': () =>
        json(200, [health({ last_checkin_at: null, domain: null, theme_version: null, theme_edition: null })]),
    });
    const panel = renderPanel();
    expect(await within(panel).findByText(HEALTH_TEXT.notSeen)).toBeInTheDocument();
    expect(within(panel).getByText(HEALTH_TEXT.notSeenHint)).toBeInTheDocument();
    expect(within(panel).queryByText(/Version/)).toBeNull();
  });

  it('treats a key the answer does not list as not seen yet', async () => {
    fakeApi({ 'GET /keys/health': () => json(200, [health({ key_id: 9 })]) });
    const panel = renderPanel(5);
    expect(await within(panel).findByText(HEALTH_TEXT.notSeen)).toBeInTheDocument();
  });

  it('offers the newer release when the store runs an older one', async () => {
    fakeApi({
      'GET /keys/health': () =>
        json(200, [health({ theme_version: '4.1.0', latest_version: '4.2.0', update_available: true })]),
    });
    const panel = renderPanel();
    expect(await within(panel).findByText('Update available: 4.2.0')).toBeInTheDocument();
    expect(within(panel).getByText('Version 4.1.0')).toBeInTheDocument();
  });

  it('warns when the token was seen on a domain the key does not cover', async () => {
    fakeApi({
      'GET /keys/health': () =>
        json(200, [health({ mismatch: { domain: 'copy-shop.example', last_seen_at: hoursAgo(48), checkins: 14 } })]),
    });
    const panel = renderPanel();
    const note = await within(panel).findByRole('note');
    expect(note).toHaveTextContent('This token was seen on copy-shop.example, which this key does not cover.');
    expect(note).toHaveTextContent(
      'Last seen 2 days ago, 14 check-ins. If that store is not yours, generate a new token in Edit Connection.',
    );
    // The store's own check-ins are still shown beside the warning.
    expect(within(panel).getByText('Checked in 3 hours ago')).toBeInTheDocument();
  });

  it('warns of a mismatch even before the store itself has checked in', async () => {
    fakeApi({
      'GET /keys/health': () =>
        json(200, [
          health({
            last_checkin_at: null,
            theme_version: null,
            mismatch: { domain: 'other.example', last_seen_at: hoursAgo(1), checkins: 1 },
          }),
        ]),
    });
    const panel = renderPanel();
    expect(await within(panel).findByRole('note')).toHaveTextContent('Last seen 1 hour ago, 1 check-in.');
    expect(within(panel).getByText(HEALTH_TEXT.notSeen)).toBeInTheDocument();
  });

  it('says calmly when the health cannot be loaded, keeping its room', async () => {
    fakeApi({ 'GET /keys/health': () => json(500, { error: 'Internal Server Error', code: 'internal' }) });
    const panel = renderPanel();
    expect(await within(panel).findByText(HEALTH_TEXT.unavailable)).toHaveClass('min-h-10');
  });
});
