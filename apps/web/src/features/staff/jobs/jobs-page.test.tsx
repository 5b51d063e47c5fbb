import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StaffJob } from '@keyport/shared/contracts/staff-jobs';
import { fakeApi, json } from '../../../test/fake-api';
import { renderStaffPage } from '../../../test/render-staff-page';
import { attemptsText, JobsPage } from './jobs-page';

afterEach(() => vi.unstubAllGlobals());

const DEAD_EMAIL: StaffJob = {
  id: 9001,
  kind: 'email.send',
  summary: '“Reset your Keyport password” to mia@example.com',
  status: 'dead',
  attempts: 12,
  max_attempts: 12,
  last_error: 'Invalid login: 535 Authentication failed',
  created_at: '2026-11-20T09:00:00.000Z',
  run_at: '2026-11-20T11:40:00.000Z',
  finished_at: '2026-11-20T12:10:00.000Z',
};
const RETRYING_EVENT: StaffJob = {
  ...DEAD_EMAIL,
  id: 9002,
  kind: 'analytics.deliver',
  summary: 'Completed Upgrade Purchase (analytics row 77)',
  status: 'queued',
  attempts: 3,
  last_error: 'Klaviyo answered 503',
  finished_at: null,
};

function Location() {
  return <output data-testid="location">{useLocation().search}</output>;
}

const renderPage = (url: string) => renderStaffPage('/staff/jobs', <JobsPage />, url, <Location />);

describe('the jobs page', () => {
  it('lists the jobs given up with kind, summary, attempts and last error; only those can be retried', async () => {
    const api = fakeApi({ 'GET /staff/jobs': () => json(200, { jobs: [DEAD_EMAIL], next_cursor: null }) });
    renderPage('/staff/jobs');
    const table = await screen.findByRole('table', { name: 'Jobs given up' });
    const row = (await within(table).findByText('#9001')).closest('tr')!;
    expect(row).toHaveTextContent('email.send');
    expect(row).toHaveTextContent('“Reset your Keyport password” to mia@example.com');
    expect(row).toHaveTextContent('12 of 12');
    expect(row).toHaveTextContent('Invalid login: 535 Authentication failed');
    expect(within(row).getByText('Nov 20, 2026, 12:10 PM')).toHaveAttribute('datetime', DEAD_EMAIL.finished_at);
    expect(within(row).getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(api.calls.map((call) => call.path)).toEqual(['/staff/jobs']);
  });

  it('shows the failing jobs waiting for their next attempt, through the URL, without a retry button', async () => {
    fakeApi({
      'GET /staff/jobs': () => json(200, { jobs: [RETRYING_EVENT], next_cursor: null }),
    });
    const user = renderPage('/staff/jobs');
    await screen.findByRole('table', { name: 'Jobs given up' });
    await user.click(screen.getByRole('radio', { name: 'Retrying' }));
    expect(screen.getByTestId('location').textContent).toBe('?status=retrying');
    const table = await screen.findByRole('table', { name: 'Jobs waiting for a retry' });
    const row = (await within(table).findByText('#9002')).closest('tr')!;
    expect(row).toHaveTextContent('3 of 12');
    expect(within(table).getByRole('columnheader', { name: 'Next attempt (UTC)' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Retry' })).toBeNull();
    const queries = vi.mocked(fetch).mock.calls.map(([input]) => new URL(String(input), 'http://localhost').search);
    expect(queries.at(-1)).toBe('?status=retrying');
  });

  it('a retry says what will happen, needs a reason, and is sent once', async () => {
    const api = fakeApi({
      'GET /staff/jobs': () => json(200, { jobs: [DEAD_EMAIL], next_cursor: null }),
      'POST /staff/jobs/9001/retry': () =>
        json(200, { job: { ...DEAD_EMAIL, status: 'queued', attempts: 0, finished_at: null } }),
    });
    const user = renderPage('/staff/jobs');
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    const dialog = screen.getByRole('dialog', { name: 'Retry job 9001?' });
    expect(dialog).toHaveTextContent(
      '“Reset your Keyport password” to mia@example.com runs again from its first attempt, with 12 attempts. The audit log keeps your reason.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(api.callsTo('POST', '/staff/jobs/9001/retry')).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'SMTP password fixed');
    await user.dblClick(within(dialog).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', '/staff/jobs/9001/retry').map((call) => call.body)).toEqual([
      { reason: 'SMTP password fixed' },
    ]);
    // The list is read again after the retry.
    await waitFor(() => expect(api.callsTo('GET', '/staff/jobs').length).toBeGreaterThan(1));
  });

  it('shows the server refusing a retry in the dialog', async () => {
    fakeApi({
      'GET /staff/jobs': () => json(200, { jobs: [DEAD_EMAIL], next_cursor: null }),
      'POST /staff/jobs/9001/retry': () =>
        json(409, { error: 'Only a job that was given up can be retried.', code: 'job_not_dead' }),
    });
    const user = renderPage('/staff/jobs');
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    const dialog = screen.getByRole('dialog', { name: 'Retry job 9001?' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Try once more');
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByText('Only a job that was given up can be retried.')).toBeTruthy();
  });

  it('says so when nothing failed, and offers a retry of the list when it cannot be loaded', async () => {
    let fail = true;
    fakeApi({
      'GET /staff/jobs': () =>
        fail ? json(500, { error: 'Internal error', code: 'internal' }) : json(200, { jobs: [], next_cursor: null }),
    });
    const user = renderPage('/staff/jobs');
    expect(await screen.findByText(/Internal error/)).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No job has been given up.')).toBeTruthy();
  });
});

describe('attemptsText', () => {
  it.each([
    [{ attempts: 3, max_attempts: 12 }, '3 of 12'],
    [{ attempts: 2, max_attempts: null }, '2'],
  ])('%o → %s', (job, text) => expect(attemptsText(job)).toBe(text));
});
