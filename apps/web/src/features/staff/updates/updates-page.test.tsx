import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { UpdatesPage } from './updates-page';

// As the server keeps them: an update without a link has no `link` key at all, and none has an `image` key.
const saved = [
  { title: 'Theme 4.2 is out', body: 'Faster pages.', date: '2026-11-20', link: 'https://example.com/changelog' },
  { title: 'Earn credits', body: 'Report five stores.', date: '2026-10-08' },
];

describe('the updates feed page', () => {
  it('says "Unsaved changes" only once the draft is edited, and not after the edit is undone', async () => {
    fakeApi({ 'GET /staff/homepage-settings': () => json(200, { updates: saved }) });
    const user = renderStaffPage('/staff/updates', <UpdatesPage />);
    const title = await screen.findByDisplayValue('Earn credits');
    expect(screen.queryByText('Unsaved changes')).toBeNull();

    await user.type(title, '!');
    expect(screen.getByText('Unsaved changes')).toBeTruthy();
    await user.type(title, '{Backspace}');
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });
});
