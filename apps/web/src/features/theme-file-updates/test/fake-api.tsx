import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import type { ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Handler = (url: URL) => Response | Promise<Response>;

/** Stubs fetch with handlers keyed by 'METHOD /path'; an unknown route fails like a dropped connection. */
export function fakeApi(handlers: Record<string, Handler>) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const name = `${init?.method ?? 'GET'} ${url.pathname}`;
      calls.push(`${name}${url.search}`);
      const handler = handlers[name];
      if (!handler) throw new TypeError(`Failed to fetch (no fake for ${name})`);
      return handler(url);
    }),
  );
  return calls;
}

const base = { linked_app_store: null, main_url: null, myshopify: null, secondary_url: null };
export const LITE: Key = {
  id: 1,
  api_key: 'LITE-1111',
  pro: false,
  lite: true,
  ...base,
  myshopify: 'harbor.myshopify.com',
};
export const REGULAR: Key = { id: 2, api_key: 'REGL-2222', pro: false, lite: false, ...base };
export const PRO: Key = { id: 3, api_key: 'PROO-3333', pro: true, lite: false, ...base };

export function runOf(overrides: Partial<ThemeFileUpdateRun> = {}): ThemeFileUpdateRun {
  return {
    id: 41,
    status: 'succeeded',
    source: { key: LITE.api_key, edition: 'LITE', version: '1.0.0' },
    target: { key: REGULAR.api_key, edition: 'REGULAR', version: '1.1.0' },
    report: {
      detection: {
        release: { edition: 'LITE', version: '1.0.0', theme_name: 'Harbor' },
        identical_files: 96,
        release_files: 100,
        export_files: 102,
        confident: true,
        stated_version: '1.0.0',
        summary: '96 of 100 files identical to Harbor 1.0.0 (LITE).',
      },
      summary: { kept: 1, moved: 1, review: 1, dropped: 1 },
      items: [
        {
          group: 'kept',
          kind: 'setting',
          file: 'config/settings_data.json',
          path: 'current.colors_accent',
          reason: 'your value',
          yours: '#ff0044',
        },
        {
          group: 'dropped',
          kind: 'setting',
          file: 'config/settings_data.json',
          path: 'current.header_layout',
          reason: 'the new version has no setting "header_layout" here',
          yours: 'classic',
        },
        {
          group: 'moved',
          kind: 'setting',
          file: 'config/settings_data.json',
          path: 'current.page_width',
          from: { path: 'current.layout_width' },
          reason: 'the new version calls the setting "layout_width" "page_width"',
          yours: 1200,
        },
        {
          group: 'review',
          kind: 'file',
          file: 'sections/header.liquid',
          reason:
            'edited by you and changed in the new version: the new version’s is in the theme, yours is in the review download',
          diff: '--- a/sections/header.liquid\n+++ b/sections/header.liquid\n@@ -1 +1 @@\n-<header>\n+<header class="harbor">\n',
        },
      ],
      vendor: { updated: ['assets/base.css'], added: [], removed: [], unchanged: 90 },
      warnings: [],
    },
    download_url: '/theme-file-updates/41/theme.zip',
    report_json_url: '/theme-file-updates/41/report.json',
    report_html_url: '/theme-file-updates/41/report.html',
    review_url: '/theme-file-updates/41/review.zip',
    created_at: '2026-11-23T10:00:00.000Z',
    expires_at: '2026-11-30T10:00:00.000Z',
    connection_moved: true,
    phase: null,
    progress: null,
    error: null,
    consent_store: null,
    ...overrides,
  };
}

/** Renders routes in a memory router with a fresh query client; the router is returned to read its location. */
export function renderRoutes(routes: RouteObject[], initial: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([...routes, { path: '*', element: <p data-testid="elsewhere">elsewhere</p> }], {
    initialEntries: [initial],
  });
  const view = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, view };
}

export const at = (path: string, element: ReactNode): RouteObject => ({ path, element });
