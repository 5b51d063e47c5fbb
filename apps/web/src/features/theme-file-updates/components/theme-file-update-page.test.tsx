import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { at, fakeApi, json, LITE, REGULAR, renderRoutes, runOf } from '../test/fake-api';
import { FakeXhr } from '../../../test/fake-xhr';
import { ThemeFileUpdatePage } from './theme-file-update-page';

const PREVIEW = {
  source: { key: LITE.api_key, edition: 'LITE', version: null },
  target: { key: REGULAR.api_key, edition: 'REGULAR', version: '1.1.0' },
  kind: 'upgrade',
  source_connected: true,
  source_store: 'harbor.myshopify.com',
  target_store: null,
};

function storeChoice() {
  localStorage.setItem(
    'themeUpgradeInfo',
    JSON.stringify({
      targetLicenseKey: REGULAR.api_key,
      targetLicenseType: 'REGULAR',
      sourceLicenseKey: LITE.api_key,
      sourceLicenseType: 'LITE',
      sourceLicenseVersion: null,
    }),
  );
  localStorage.setItem(
    'upgradeInfo',
    JSON.stringify({
      themeKey: LITE.api_key,
      type: 'lite-to-reg',
      currentLicenseType: 'LITE',
      targetLicenseType: 'REGULAR',
      storeInfo: { domain: 'harbor.myshopify.com', myshopify: 'harbor.myshopify.com', api_key: LITE.api_key },
    }),
  );
}

const RUNNING = {
  status: 'running',
  phase: 'queued',
  progress: { done: 0, total: 0 },
  report: null,
  download_url: null,
  report_json_url: null,
  report_html_url: null,
  review_url: null,
  connection_moved: false,
} as const;

const page = () =>
  renderRoutes(
    [at('/customer/upgrade_file/lite-to-reg', <ThemeFileUpdatePage page="lite-to-reg" />)],
    '/customer/upgrade_file/lite-to-reg',
  );
const zip = () => new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'harbor-theme.zip', { type: 'application/zip' });

beforeEach(() => {
  localStorage.clear();
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => vi.unstubAllGlobals());

describe('the upgrade page', () => {
  it('names source and target (edition, version) before anything, and explains the Shopify export', async () => {
    storeChoice();
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
    });
    page();
    const sides = await screen.findByRole('region', { name: 'Source and target license' });
    await within(sides).findByText('version 1.1.0');
    expect(within(sides).getByText('LITE')).toBeInTheDocument();
    expect(within(sides).getByText('REGULAR')).toBeInTheDocument();
    expect(within(sides).getByText(LITE.api_key)).toBeInTheDocument();
    expect(within(sides).getByText(REGULAR.api_key)).toBeInTheDocument();
    expect(within(sides).getByText('version read from your export')).toBeInTheDocument();
    expect(screen.getByText('In your Shopify admin, go to Online Store → Themes.')).toBeInTheDocument();
    expect(screen.getByText('Download theme file')).toBeInTheDocument();
  });

  it('refuses a file that is not a zip, under the drop zone', async () => {
    storeChoice();
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
    });
    const user = userEvent.setup({ applyAccept: false });
    page();
    await screen.findByText('version 1.1.0');
    await user.upload(screen.getByLabelText('Choose file'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the theme .zip file you downloaded from Shopify.');
    expect(screen.getByRole('button', { name: 'Upgrade to REGULAR' })).toBeDisabled();
  });

  it('asks before moving the connection, uploads with progress, shows the run’s phases while it runs, then the report', async () => {
    storeChoice();
    let polls = 0;
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
      'GET /theme-file-updates/41': () =>
        json(
          200,
          ++polls === 1
            ? { run: runOf({ ...RUNNING, phase: 'merge', progress: { done: 30, total: 100 } }) }
            : { run: runOf() },
        ),
    });
    const user = userEvent.setup();
    const { router } = page();
    await screen.findByText('version 1.1.0');
    await user.upload(screen.getByLabelText('Choose file'), zip());
    expect(screen.getByText('harbor-theme.zip')).toBeInTheDocument();
    const go = screen.getByRole('button', { name: 'Upgrade to REGULAR' });
    expect(go).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: /will be connected to the REGULAR key/ }));
    expect(go).toBeEnabled();
    await user.click(go);

    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/theme-file-updates');
    expect(xhr.form!.get('source_key')).toBe(LITE.api_key);
    expect(xhr.form!.get('target_key')).toBe(REGULAR.api_key);
    expect(xhr.form!.get('move_connection')).toBe('true');
    expect(xhr.form!.get('consent_store')).toBeNull();
    expect((xhr.form!.get('theme') as File).name).toBe('harbor-theme.zip');

    xhr.progress(50, 100);
    expect(await screen.findByText('Uploading… 50%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    xhr.progress(100, 100);
    expect(await screen.findByText('Starting the upgrade…')).toBeInTheDocument();
    // The server answers at once with the run queued; the page polls it.
    xhr.answer(201, { run: runOf(RUNNING) });
    expect(await screen.findByRole('heading', { name: 'Building your REGULAR theme…' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Step 1 of 6: Waiting to start');
    expect(router.state.location.search).toBe('?run=41');
    expect(
      await screen.findByText(
        'Step 4 of 6: Merging your changes into the new version (30 of 100)',
        {},
        { timeout: 3000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upgrade progress' })).toHaveAttribute('aria-valuenow', '55');

    expect(
      await screen.findByRole('heading', { name: 'Your REGULAR theme 1.1.0 is ready' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Upgraded from your LITE 1.0.0 theme to REGULAR 1.1.0.')).toBeInTheDocument();
    expect(screen.getByText(/Your store is now connected to the REGULAR key/)).toBeInTheDocument();
    expect(screen.getByText('96 of 100 files identical to Harbor 1.0.0 (LITE).')).toBeInTheDocument();
    const summary = screen.getByLabelText('Report summary');
    expect(within(summary).getByText('Needs your review').nextSibling).toHaveTextContent('1');
    // Counts first; each group's details behind a disclosure.
    const dropped = screen.getByText('Dropped', { selector: 'summary' }).closest('details')!;
    expect(dropped).not.toHaveAttribute('open');
    await user.click(within(dropped).getByText('Dropped'));
    expect(dropped).toHaveAttribute('open');
    expect(within(dropped).getByText('the new version has no setting "header_layout" here')).toBeVisible();
    expect(screen.getByText('was current.layout_width')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download theme' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Report (JSON)' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Report (HTML)' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Your edited files' })).toBeEnabled();
  });

  it('the owner cancels a run in progress: the page says nothing was changed and offers the form again', async () => {
    storeChoice();
    const calls = fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
      'GET /theme-file-updates/41': () => json(200, { run: runOf({ ...RUNNING, phase: 'detect' }) }),
      'POST /theme-file-updates/41/cancel': () =>
        json(200, {
          run: runOf({
            ...RUNNING,
            status: 'cancelled',
            phase: null,
            error: { code: 'cancelled', message: 'Upgrade cancelled. Nothing was changed.' },
          }),
        }),
    });
    const user = userEvent.setup();
    renderRoutes(
      [at('/customer/upgrade_file/lite-to-reg', <ThemeFileUpdatePage page="lite-to-reg" />)],
      '/customer/upgrade_file/lite-to-reg?run=41',
    );
    expect(await screen.findByText('Step 3 of 6: Finding the release your theme started from')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel upgrade' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Upgrade cancelled. Nothing was changed.');
    expect(calls).toContain('POST /theme-file-updates/41/cancel');
    expect(screen.getByRole('button', { name: 'Upgrade to REGULAR' })).toBeInTheDocument();
  });

  it('a target key that licenses another store: named, and moved only with the consent ticked (sent with the upload)', async () => {
    storeChoice();
    fakeApi({
      'GET /keys/': () => json(200, [LITE, { ...REGULAR, myshopify: 'second-shop.myshopify.com' }]),
      'GET /theme-file-updates/preview': () => json(200, { ...PREVIEW, target_store: 'second-shop.myshopify.com' }),
    });
    const user = userEvent.setup();
    page();
    await screen.findByText('version 1.1.0');
    await user.upload(screen.getByLabelText('Choose file'), zip());
    await user.click(screen.getByRole('checkbox', { name: /will be connected to the REGULAR key/ }));
    const go = screen.getByRole('button', { name: 'Upgrade to REGULAR' });
    expect(go).toBeDisabled();
    const consent = screen.getByRole('checkbox', {
      name: new RegExp(
        'I understand that second-shop\\.myshopify\\.com will lose its license: the key stops working there once the upgrade finishes\\.',
      ),
    });
    expect(screen.getByText(/licenses second-shop\.myshopify\.com\./)).toBeInTheDocument();
    await user.click(consent);
    expect(go).toBeEnabled();
    await user.click(go);
    expect(FakeXhr.last!.form!.get('consent_store')).toBe('second-shop.myshopify.com');
  });

  it("shows the server's error under the drop zone, and the person can try again", async () => {
    storeChoice();
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
    });
    const user = userEvent.setup();
    page();
    await screen.findByText('version 1.1.0');
    await user.upload(screen.getByLabelText('Choose file'), zip());
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Upgrade to REGULAR' }));
    FakeXhr.last!.answer(422, {
      error: "The uploaded theme's edition does not match the source license.",
      code: 'edition_mismatch',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "The uploaded theme's edition does not match the source license.",
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upgrade to REGULAR' })).toBeEnabled());
  });

  it('a reload keeps the choice (from §3 storage); with none stored it asks for one', async () => {
    storeChoice();
    fakeApi({
      'GET /keys/': () => json(200, [LITE, REGULAR]),
      'GET /theme-file-updates/preview': () => json(200, PREVIEW),
    });
    const first = page();
    await screen.findByText('version 1.1.0');
    first.view.unmount();
    page();
    expect(await screen.findByText('version 1.1.0')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Source and target license' })).getByText(REGULAR.api_key),
    ).toBeInTheDocument();

    localStorage.clear();
    const calls = fakeApi({ 'GET /keys/': () => json(200, [LITE, REGULAR]) });
    page();
    expect(await screen.findByRole('button', { name: 'Choose an upgrade' })).toBeInTheDocument();
    expect(calls.some((call) => call.startsWith('GET /theme-file-updates/preview'))).toBe(false);
  });

  it('refuses stored keys that are not the person’s own', async () => {
    storeChoice();
    fakeApi({ 'GET /keys/': () => json(200, [LITE]) });
    page();
    expect(await screen.findByRole('button', { name: 'Choose an upgrade' })).toBeInTheDocument();
  });
});
