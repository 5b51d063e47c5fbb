import { DEMO, expect, test } from '../support/fixtures';

// The built portal as a browser gets it: scripts and styles precompressed with brotli and cached for a year, the app
// shell revalidated, and the keys list compressed.
test('the dashboard arrives compressed, with immutable assets and a revalidated shell', async ({ page, login }) => {
  // Each answer's headers are read asynchronously: the handlers' reads are awaited before `seen` is looked at (a
  // card can be on screen before the read of the answer that brought it has ended).
  const seen = new Map<string, { status: number; headers: Record<string, string> }>();
  const reads: Promise<void>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    reads.push(
      response.allHeaders().then((headers) => {
        seen.set(url.pathname, { status: response.status(), headers });
      }),
    );
  });
  await login(DEMO);
  await expect(page.getByTestId('key-card').first()).toBeVisible();
  await Promise.all(reads);

  const assets = [...seen].filter(([path]) => /^\/assets\/.+\.(?:js|css)$/.test(path));
  expect(assets.filter(([, { headers }]) => headers['content-encoding'] === 'br').length).toBeGreaterThan(2);
  for (const [path, { headers }] of assets) {
    // The build leaves files under 512 bytes as they are (compressing them gains nothing).
    if (headers['content-encoding'] === undefined) expect(Number(headers['content-length']), path).toBeLessThan(512);
    else expect(headers['content-encoding'], path).toBe('br');
    expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
    expect(headers['vary'], path).toMatch(/accept-encoding/i);
  }
  const shell = seen.get('/customer/my-keys'); // login() opens the dashboard directly
  expect(shell?.headers['cache-control']).toBe('no-cache');
  expect(shell?.headers['content-encoding']).toBe('br');
  const keys = seen.get('/keys/') ?? seen.get('/keys');
  expect(keys?.status).toBe(200);
  expect(keys?.headers['content-encoding']).toBe('br');
});
