import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { Liquid } from 'liquidjs';
import config from '../playwright.config';
import { createCustomer, expect, mintKeys, test } from '../support/fixtures';

/**
 * Issue 13, ADR 033: the demo theme's license check on a store page. The test is the store: a node:http server renders
 * the theme's `snippets/license-check.liquid` with liquidjs (Shopify's Liquid, as the storefront would, with the
 * theme's own settings_data.json) and serves its `assets/license-check.js`, both taken from a theme zip downloaded
 * through the portal for a connected key. Chromium resolves the store's myshopify domain to that server.
 */
const STORE = `lic-e2e-${Date.now().toString(36)}.myshopify.com`;
/**
 * A real store is served over HTTPS, a secure context, where the script verifies answers with WebCrypto: so is this
 * one, with a self-signed certificate (e2e/support/store-tls) its browser contexts accept. (Chromium's headless shell
 * ignores `--unsafely-treat-insecure-origin-as-secure`, which a plain-HTTP store needed.)
 */
const TLS_DIR = path.join(import.meta.dirname, '../support/store-tls');
const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: {
    ...launch,
    args: [...(launch.args ?? []), `--host-resolver-rules=MAP ${STORE} 127.0.0.1`],
  },
});

interface ThemeFiles {
  snippet: string;
  script: string;
  settings: Record<string, unknown>;
}

/** The store: `/` is a page of the theme (`?design_mode=1`: as the theme editor shows it to the store's admin). */
async function startStore(theme: ThemeFiles) {
  const liquid = new Liquid();
  liquid.registerFilter('asset_url', (name: string) => `/assets/${name}`);
  const tls = {
    key: fs.readFileSync(path.join(TLS_DIR, 'key.pem')),
    cert: fs.readFileSync(path.join(TLS_DIR, 'cert.pem')),
  };
  const server = https.createServer(tls, (request, response) => {
    const url = new URL(request.url ?? '/', 'https://store');
    if (url.pathname === '/assets/license-check.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(theme.script);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (url.pathname !== '/') {
      response.writeHead(404).end();
      return;
    }
    const context = { settings: theme.settings, request: { design_mode: url.searchParams.get('design_mode') === '1' } };
    liquid.parseAndRender(theme.snippet, context).then(
      (snippet: string) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo store</title></head>
<body>${snippet}<h1>Demo store</h1><button type="button" onclick="this.textContent='Added'">Add to cart</button></body></html>`,
        );
      },
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `https://${STORE}:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A fresh browser context on a store page, with every console error and page error it shows. */
async function visit(browser: Browser, url: string, existing?: BrowserContext) {
  const context = existing ?? (await browser.newContext({ ignoreHTTPSErrors: true }));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  const validations: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/licenses/validate') && response.request().method() === 'POST') {
      validations.push(response.status());
    }
  });
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Demo store' })).toBeVisible();
  return { context, page, errors, validations };
}

// Four browser contexts and a theme download: the shared test machines are slow at times.
test.describe.configure({ timeout: 90_000 });

const notice = (page: Page) => page.locator('[data-keyport-license-notice]');

/** The page works: its own script runs, and nothing of the license check got in the way. */
async function expectStoreWorks(page: Page) {
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('button', { name: 'Added' })).toBeVisible();
}

test('a store page validates its license; after the token is regenerated the admin sees a notice, shoppers never', async ({
  browser,
  request,
  baseURL,
}, testInfo) => {
  // A connected key, and its theme downloaded through the portal with the token inside.
  const [key] = await mintKeys(request, baseURL!, 'PRO', 1);
  const customer = await createCustomer(request, baseURL!, 'license-snippet');
  const auth = { authorization: `Token ${customer.token}` };
  expect((await request.post(`${baseURL}/keys/`, { headers: auth, data: { key } })).status()).toBe(201);
  const saved = await request.put(`${baseURL}/keys/`, { headers: auth, data: { key, myshopify: STORE } });
  expect(saved.status()).toBe(200);
  const { tokentheme } = (await saved.json()) as { tokentheme: string };
  const release = await request.post(`${baseURL}/staff/get-releases`, { headers: auth, data: { key } });
  expect(release.status()).toBe(200);
  const { download_link } = ((await release.json()) as { result: { download_link: string } }).result;
  const download = await request.post(`${baseURL}/api/download-with-token`, {
    headers: auth,
    data: { downloadUrl: download_link, token: tokentheme, licenseType: 'PRO' },
  });
  expect(download.status()).toBe(200);
  const zip = testInfo.outputPath('theme.zip');
  fs.writeFileSync(zip, await download.body());
  const unzip = (name: string) => execFileSync('unzip', ['-p', zip, `*${name}`]).toString('utf8');
  const settings = (JSON.parse(unzip('config/settings_data.json')) as { current: Record<string, unknown> }).current;
  expect(settings).toMatchObject({ license_token: tokentheme, license_portal_url: baseURL });
  const store = await startStore({
    snippet: unzip('snippets/license-check.liquid'),
    script: unzip('assets/license-check.js'),
    settings,
  });

  try {
    // The admin in the theme editor: the portal says VALID, no notice; the answer's signature verifies with the
    // portal's JWKS in the browser, and the signed answer is kept for the next views.
    const admin = await visit(browser, `${store.origin}/?design_mode=1`);
    await expect.poll(() => admin.validations).toEqual([200]);
    const cached = await admin.page.evaluate(
      (prefix) => Object.keys(localStorage).filter((name) => name.startsWith(prefix)),
      'keyport-license:',
    );
    expect(cached).toEqual([`keyport-license:${tokentheme}@${STORE}`]);
    const entry = JSON.parse((await admin.page.evaluate((name) => localStorage.getItem(name), cached[0]!))!) as {
      body: string;
      signature: string | null;
    };
    expect(JSON.parse(entry.body)).toMatchObject({ valid: true, code: 'VALID', domain: STORE });
    expect(entry.signature).toMatch(/^kid=.+,sig=.+$/);
    expect(await admin.page.evaluate(() => window.isSecureContext)).toBe(true);
    await expect(notice(admin.page)).toHaveCount(0);
    await expectStoreWorks(admin.page);
    expect(admin.errors).toEqual([]);

    // The customer regenerates the token in the portal; the store still runs the theme with the old one.
    const regenerated = await request.put(`${baseURL}/keys/`, { headers: auth, data: { key, myshopify: STORE } });
    expect(regenerated.status()).toBe(200);
    expect(((await regenerated.json()) as { tokentheme: string }).tokentheme).not.toBe(tokentheme);

    // Where the VALID answer is cached, it is trusted until its expires_at: no call, no notice (yet).
    const again = await visit(browser, `${store.origin}/?design_mode=1`, admin.context);
    await expectStoreWorks(again.page);
    expect(again.validations).toEqual([]);
    await expect(notice(again.page)).toHaveCount(0);

    // A fresh context (another admin's browser, or the same once the answer expired) asks, and the admin is told.
    const freshAdmin = await visit(browser, `${store.origin}/?design_mode=1`);
    await expect(notice(freshAdmin.page)).toHaveAttribute('data-keyport-license-notice', 'TOKEN_SUPERSEDED');
    await expect(notice(freshAdmin.page)).toHaveText(/^Theme license: This license token was replaced by a newer one/);
    await expect(freshAdmin.page.getByRole('status')).toBeVisible();
    await expectStoreWorks(freshAdmin.page);
    expect(freshAdmin.errors).toEqual([]);
    await testInfo.attach('admin-notice', { body: await freshAdmin.page.screenshot(), contentType: 'image/png' });

    // The notice's answer is cached too; edited in storage to say VALID, it no longer verifies: dropped, asked again.
    const stored = await freshAdmin.page.evaluate(() => {
      const name = Object.keys(localStorage).find((key) => key.startsWith('keyport-license:'))!;
      const item = JSON.parse(localStorage.getItem(name)!) as { body: string };
      localStorage.setItem(
        name,
        JSON.stringify({
          ...item,
          body: item.body.replace('"valid":false', '"valid":true').replace('TOKEN_SUPERSEDED', 'VALID'),
        }),
      );
      return name;
    });
    const tampered = await visit(browser, `${store.origin}/?design_mode=1`, freshAdmin.context);
    await expect(notice(tampered.page)).toHaveAttribute('data-keyport-license-notice', 'TOKEN_SUPERSEDED');
    expect(tampered.validations).toEqual([200]);
    expect(await tampered.page.evaluate((name) => localStorage.getItem(name), stored)).toContain('TOKEN_SUPERSEDED');
    expect(tampered.errors).toEqual([]);

    // A shopper gets the same answer and sees nothing.
    const shopper = await visit(browser, `${store.origin}/`);
    await expect.poll(() => shopper.validations).toEqual([200]);
    await expectStoreWorks(shopper.page);
    await expect(notice(shopper.page)).toHaveCount(0);
    expect(shopper.errors).toEqual([]);

    // The portal unreachable: the page works, the script throws nothing, no notice, nothing cached.
    const offline = await browser.newContext({ ignoreHTTPSErrors: true });
    await offline.route(`${baseURL}/api/licenses/validate`, (route) => route.abort('connectionrefused'));
    const down = await visit(browser, `${store.origin}/?design_mode=1`, offline);
    await expectStoreWorks(down.page);
    await expect(notice(down.page)).toHaveCount(0);
    expect(await down.page.evaluate(() => localStorage.length)).toBe(0);
    // Chromium itself logs the failed request ("Failed to load resource"); the page logs nothing else.
    expect(down.errors.filter((text) => !/^Failed to load resource: net::ERR_/.test(text))).toEqual([]);

    for (const visited of [admin, freshAdmin, shopper, down]) await visited.context.close();
  } finally {
    await store.close();
  }
});
