import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_TEXT, DownloadError, downloadTheme } from './download-theme';

const release = {
  result: { version: '4.2.0', download_link: 'http://localhost/api/releases/1/download?key=1&expires=1&sig=x' },
};
const zip = (body = 'PK-zip-bytes') =>
  new Response(body, {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-length': String(body.length),
      'content-disposition': 'attachment; filename="aurora-pro-4.2.0.zip"',
    },
  });
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Route = (url: string) => Response | Promise<Response>;
function serve(routes: Record<string, Route>) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    const route = Object.entries(routes).find(([path]) => url.startsWith(path));
    if (!route) throw new TypeError('Failed to fetch');
    return route[1](url);
  });
}

describe('downloadTheme (§8 Download)', () => {
  let clicks: string[];
  beforeEach(() => {
    clicks = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('downloads the zip with the token, reporting progress, under the server-given name', async () => {
    vi.stubGlobal(
      'fetch',
      serve({ '/staff/get-releases': () => json(200, release), '/api/download-with-token': () => zip() }),
    );
    const progress: (number | null)[] = [];
    const fallback = vi.fn();
    const outcome = await downloadTheme(
      { licenseKey: 'K', token: 't.o.k', licenseType: 'PRO' },
      (p) => progress.push(p),
      fallback,
    );
    expect(outcome).toEqual({ withToken: true, fileName: 'aurora-pro-4.2.0.zip', version: '4.2.0' });
    expect(progress.at(-1)).toBe(1);
    expect(clicks).toEqual(['aurora-pro-4.2.0.zip']);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('falls back to the download without the token when the token download fails', async () => {
    vi.stubGlobal(
      'fetch',
      serve({
        '/staff/get-releases': () => json(200, release),
        '/api/download-with-token': () => json(500, { error: 'boom' }),
        '/api/proxy_dl': () => zip(),
      }),
    );
    const fallback = vi.fn();
    const outcome = await downloadTheme(
      { licenseKey: 'K', token: 't.o.k', licenseType: 'PRO' },
      () => undefined,
      fallback,
    );
    expect(fallback).toHaveBeenCalledOnce();
    expect(outcome.withToken).toBe(false);
    expect(clicks).toHaveLength(1);
  });

  it('gives the manual link when both downloads fail', async () => {
    vi.stubGlobal(
      'fetch',
      serve({
        '/staff/get-releases': () => json(200, release),
        '/api/download-with-token': () => json(500, { error: 'boom' }),
        '/api/proxy_dl': () => json(502, { error: 'nope' }),
      }),
    );
    const error = await downloadTheme(
      { licenseKey: 'K', token: 't', licenseType: 'PRO' },
      () => undefined,
      () => undefined,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as DownloadError).message).toBe('Download failed completely...');
    expect((error as DownloadError).manualLink).toBe(release.result.download_link);
  });

  it.each([
    [
      'the release info fails',
      { '/staff/get-releases': () => json(404, { error: 'x' }) },
      't',
      DOWNLOAD_TEXT.versionInfoFailed,
    ],
    [
      'there is no link',
      { '/staff/get-releases': () => json(200, { result: { version: '1', download_link: '' } }) },
      't',
      'Download link not available.',
    ],
    [
      'there is no token',
      { '/staff/get-releases': () => json(200, release) },
      null,
      'Authentication token not available. Please generate token first.',
    ],
  ] as const)('stops with the spec text when %s', async (_case, routes, token, message) => {
    vi.stubGlobal('fetch', serve(routes as Record<string, Route>));
    await expect(
      downloadTheme(
        { licenseKey: 'K', token, licenseType: 'PRO' },
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow(message);
  });
});
