import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Tier } from '@keyport/shared/domain/tiers';
import { generateThemeZip, type GenerateThemeZipOptions } from '../../src/db/demo-theme';
import { auth, signUp, type TestApp } from './test-app';

/** A temporary DATA_DIR for one test file (removed afterwards). `dir()` is only valid once beforeAll ran. */
export function useDataDir(label: string): () => string {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), `keyport-${label}-`));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  return () => dir;
}

/** Writes a theme zip and returns its path and bytes. */
export async function makeThemeZip(
  dir: string,
  options: Partial<GenerateThemeZipOptions> & { edition: Tier },
): Promise<{ path: string; bytes: Buffer }> {
  const file = path.join(dir, `theme-${Math.random().toString(36).slice(2)}.zip`);
  await generateThemeZip(file, { version: '4.2.0', themeName: 'Aurora', ...options });
  return { path: file, bytes: await readFile(file) };
}

/** A multipart/form-data body (through the platform's FormData, as a browser would send it). */
export async function multipartBody(
  fields: Record<string, string>,
  file?: { content: Buffer; filename?: string; field?: string },
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    form.append(
      file.field ?? 'file',
      new Blob([file.content], { type: 'application/zip' }),
      file.filename ?? 'theme.zip',
    );
  }
  const response = new Response(form);
  return {
    payload: Buffer.from(await response.arrayBuffer()),
    headers: { 'content-type': response.headers.get('content-type') ?? '' },
  };
}

/** `POST /staff/releases`; the staff reason every upload asks for is filled in unless `fields` names one. */
export async function uploadRelease(
  t: TestApp,
  staffToken: string,
  fields: Record<string, string>,
  file?: { content: Buffer; filename?: string; field?: string },
) {
  const body = await multipartBody({ reason: 'Publishing a test release', ...fields }, file);
  return t.app.inject({
    method: 'POST',
    url: '/staff/releases',
    headers: { ...auth(staffToken), ...body.headers },
    payload: body.payload,
  });
}

let people = 0;
/** A new customer (and, once, a staff member to mint keys with). */
export const newCustomer = (t: TestApp, label = 'customer') => signUp(t, `${label}-${++people}@example.com`);
export const newStaff = (t: TestApp) => signUp(t, `staff-${++people}@example.com`, { role: 'staff' });

/** Mints a key of `tier` and claims it for the user; returns the license key and its id. */
export async function claimNewKey(t: TestApp, userToken: string, tier: Tier): Promise<{ apiKey: string; id: number }> {
  const [apiKey] = await t.app.services.keys.mintKeys(tier, 1);
  const claimed = await t.app.inject({
    method: 'POST',
    url: '/keys/',
    headers: auth(userToken),
    payload: { key: apiKey },
  });
  expect(claimed.statusCode).toBe(201);
  return { apiKey: apiKey!, id: claimed.json<{ key: { id: number } }>().key.id };
}

/** Issues a new theme token for the key through `PUT /keys/`, as its owner does in the Connect wizard. */
export async function issueThemeToken(t: TestApp, userToken: string, apiKey: string): Promise<string> {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/keys/',
    headers: auth(userToken),
    payload: { key: apiKey, main_url: 'aurora-outfitters.com', myshopify: 'aurora-outfitters' },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ tokentheme: string }>().tokentheme;
}

export async function getReleaseLink(t: TestApp, userToken: string, apiKey: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/staff/get-releases',
    headers: auth(userToken),
    payload: { key: apiKey },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ result: { version: string; download_link: string } }>().result;
}

/** The part of an absolute link that `inject` takes (path and query). */
export const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** Files left in DATA_DIR/tmp (uploads must never leave any). */
export async function leftoverUploads(dataDir: string): Promise<string[]> {
  return readdir(path.join(dataDir, 'tmp')).catch(() => []);
}
