/**
 * Theme upgrades as jobs (issue 20, ADR 041): the upload answers at once; a run survives its worker stopping or
 * dying; its owner can cancel it (nothing written, no connection moved); expired runs' files are deleted by the
 * recurring sweep; a key that licenses another store moves only with a consent naming that store (409 otherwise).
 *
 * The app's own engine is stopped here: each test drives engines of its own, so it says when (and where) a job runs.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Key } from '@keyport/shared/contracts/keys';
import { targetConnectedError, type ThemeFileUpdateRun } from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';
import { DEMO_PREVIOUS_RELEASE, DEMO_RELEASE } from '../src/db/seed-data';
import { jobs as jobsTable, themeFileUpdateRuns } from '../src/db/schema';
import type { StoragePort } from '../src/integrations/storage/port';
import { DEFAULT_THEME_ZIP_LIMITS } from '../src/lib/theme-zip/scan';
import { createJobs, type Jobs } from '../src/modules/jobs/jobs.service';
import {
  scheduleThemeFileUpdateJobs,
  themeFileUpdateRunJob,
} from '../src/modules/theme-file-updates/theme-file-update.job';
import {
  THEME_FILE_UPDATE_JOB,
  THEME_FILE_UPDATE_SWEEP_JOB,
  createThemeFileUpdatesService,
} from '../src/modules/theme-file-updates/theme-file-updates.service';
import { auth, createTestApp, type TestApp } from './helpers/test-app';
import {
  claimNewKey,
  issueThemeToken,
  makeThemeZip,
  multipartBody,
  newCustomer,
  newStaff,
  uploadRelease,
  useDataDir,
} from './helpers/releases';

const dataDir = useDataDir('theme-file-update-jobs');
let t: TestApp;
type Person = { token: string; id: number };

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY_MS = 86_400_000;

/** An engine of our own on the test database that never polls: `runUntilIdle` says when it works. */
function engine(options: { now?: () => Date } = {}): Jobs {
  return createJobs({ db: t.db, log: silentLog, now: options.now, pollMs: 3_600_000, stopGraceMs: 0 });
}

/** The app's service on another engine and storage: a second process, as far as the job is concerned. */
function serviceWith(jobs: Jobs, storage: StoragePort) {
  return createThemeFileUpdatesService({
    db: t.db,
    storage,
    keys: t.app.services.keys,
    connect: t.app.services.connect,
    releases: t.app.services.releases,
    limits: DEFAULT_THEME_ZIP_LIMITS,
    jobs,
    workDir: path.join(dataDir(), 'tmp'),
  });
}

/** The app's storage, except that reading an upload back waits until `open()`; `reached` resolves when one does. */
function gatedStorage() {
  const base = t.app.services.storage;
  let open!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const storage: StoragePort = {
    name: base.name,
    put: (key, source) => base.put(key, source),
    stat: (key) => base.stat(key),
    localPath: (key) => base.localPath(key),
    delete: (key) => base.delete(key),
    async createReadStream(key, range) {
      if (key.includes('/upload-')) {
        arrived();
        await gate;
      }
      return base.createReadStream(key, range);
    },
  };
  return { storage, open, reached };
}

async function exportOf(edition: Tier): Promise<Buffer> {
  const zip = await makeThemeZip(dataDir(), {
    edition,
    version: DEMO_PREVIOUS_RELEASE.version,
    settingRenames: { ...DEMO_PREVIOUS_RELEASE.theme.settingRenames },
    announcementBar: true,
    featuredSection: { blockTypes: [...DEMO_PREVIOUS_RELEASE.theme.featuredSection.blockTypes] },
  });
  return zip.bytes;
}

async function post(
  person: Person,
  fields: { target_key: string; source_key: string; move_connection?: string; consent_store?: string },
  theme: Buffer,
) {
  const body = await multipartBody(
    { move_connection: 'false', ...fields },
    { content: theme, field: 'theme', filename: 'theme_export.zip' },
  );
  return t.app.inject({
    method: 'POST',
    url: '/theme-file-updates',
    headers: { ...auth(person.token), ...body.headers },
    payload: body.payload,
  });
}

async function started(person: Person, fields: Parameters<typeof post>[1], theme: Buffer): Promise<ThemeFileUpdateRun> {
  const response = await post(person, fields, theme);
  expect(response.statusCode, response.body).toBe(201);
  const { run } = response.json<{ run: ThemeFileUpdateRun }>();
  expect(run).toMatchObject({ status: 'running', phase: 'queued', report: null, download_url: null });
  return run;
}

async function readRun(person: Person, id: number): Promise<ThemeFileUpdateRun> {
  const response = await t.app.inject({ method: 'GET', url: `/theme-file-updates/${id}`, headers: auth(person.token) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ run: ThemeFileUpdateRun }>().run;
}

async function keysOf(person: Person): Promise<Key[]> {
  return (await t.app.inject({ method: 'GET', url: '/keys/', headers: auth(person.token) })).json<Key[]>();
}

/** Connects `apiKey` to `store` (PUT /keys/, as the Connect wizard does). */
async function connectTo(person: Person, apiKey: string, store: string) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/keys/',
    headers: auth(person.token),
    payload: { key: apiKey, main_url: `${store}.com`, myshopify: store },
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Every stored or temporary file whose name carries this run's id (`theme-file-updates/<id>-…`). */
async function filesOfRun(runId: number): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.startsWith(`${runId}-`) || entry.name.startsWith(`theme-file-update-${runId}-`))
        found.push(full);
    }
  };
  await walk(dataDir());
  return found;
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://portal.keyport.test' });
  await t.app.services.jobs.stop();
  const staff = await newStaff(t);
  for (const edition of ['LITE', 'REGULAR'] as const) {
    for (const release of [DEMO_PREVIOUS_RELEASE, DEMO_RELEASE]) {
      const zip = await makeThemeZip(dataDir(), {
        edition,
        version: release.version,
        featuredSection: { blockTypes: [...release.theme.featuredSection.blockTypes] },
        ...(release === DEMO_PREVIOUS_RELEASE
          ? { settingRenames: { ...DEMO_PREVIOUS_RELEASE.theme.settingRenames }, announcementBar: true }
          : {}),
      });
      const map: Record<string, string> =
        release === DEMO_RELEASE ? { migration_map: JSON.stringify(DEMO_RELEASE.migrationMap) } : {};
      const uploaded = await uploadRelease(
        t,
        staff.token,
        { edition, version: release.version, ...map },
        {
          content: zip.bytes,
        },
      );
      expect(uploaded.statusCode, uploaded.body).toBe(201);
    }
  }
}, 120_000);

/** A customer with a LITE key connected to their store and a REGULAR key (its token issued: connected too). */
async function customer(label: string) {
  const person = await newCustomer(t, label);
  const lite = await claimNewKey(t, person.token, 'LITE');
  const regular = await claimNewKey(t, person.token, 'REGULAR');
  await issueThemeToken(t, person.token, lite.apiKey);
  return { person, lite, regular };
}

describe('a run is a job', () => {
  it('the upload answers at once; the job goes through the phases and the run succeeds', async () => {
    const { person, lite, regular } = await customer('phases');
    await connectTo(person, regular.apiKey, 'aurora-outfitters');
    const run = await started(person, { target_key: regular.apiKey, source_key: lite.apiKey }, await exportOf('LITE'));
    const [job] = await t.db
      .select()
      .from(jobsTable)
      .where(eq(jobsTable.id, (await runRow(run.id)).jobId!));
    expect(job).toMatchObject({ kind: THEME_FILE_UPDATE_JOB, status: 'queued' });
    const phases: string[] = [];
    const worker = engine();
    const definition = themeFileUpdateRunJob(serviceWith(worker, t.app.services.storage));
    worker.register({
      ...definition,
      handler: (payload, context) =>
        definition.handler(payload, {
          ...context,
          async progress(value) {
            phases.push(String(value.phase));
            await context.progress(value);
          },
        }),
    });
    await worker.runUntilIdle();
    expect(phases).toEqual(['upload', 'detect', 'merge', 'check', 'write']);
    const done = await readRun(person, run.id);
    expect(done).toMatchObject({ status: 'succeeded', phase: null, progress: null, error: null });
    expect(done.report!.detection.release).toMatchObject({ edition: 'LITE', version: DEMO_PREVIOUS_RELEASE.version });
    const [row] = await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.id, run.id));
    expect(row!.uploadKey).toBeNull();
  });

  it('survives its engine stopping mid-run: a new engine finishes it', async () => {
    const { person, lite, regular } = await customer('restart');
    await connectTo(person, regular.apiKey, 'aurora-outfitters');
    const run = await started(person, { target_key: regular.apiKey, source_key: lite.apiKey }, await exportOf('LITE'));
    const first = engine();
    const gated = gatedStorage();
    first.register(themeFileUpdateRunJob(serviceWith(first, gated.storage)));
    const working = first.runUntilIdle();
    await gated.reached;
    expect(await readRun(person, run.id)).toMatchObject({ status: 'running', phase: 'upload' });
    // The process stops while the job reads the export: the handler is aborted at its next step, the claim given back.
    const stopping = first.stop();
    // stop() aborts the handler once its grace (0 ms here) is over; the read goes on after that.
    await new Promise((resolve) => setTimeout(resolve, 50));
    gated.open();
    await Promise.all([stopping, working]);
    expect(await readRun(person, run.id)).toMatchObject({ status: 'running' });
    const [job] = await t.db
      .select()
      .from(jobsTable)
      .where(eq(jobsTable.id, (await runRow(run.id)).jobId!));
    expect(job).toMatchObject({ status: 'queued', lockedBy: null });

    const second = engine();
    second.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await second.runUntilIdle();
    expect(await readRun(person, run.id)).toMatchObject({ status: 'succeeded', connection_moved: false });
  });

  it('survives its worker dying mid-run: once the claim expires another worker runs it, and the dead one writes nothing', async () => {
    const { person, lite, regular } = await customer('dead-worker');
    const run = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' },
      await exportOf('LITE'),
    );
    const hung = engine();
    const gated = gatedStorage();
    hung.register(themeFileUpdateRunJob(serviceWith(hung, gated.storage)));
    const hanging = hung.runUntilIdle();
    await gated.reached;
    // The hung worker no longer renews its claim (as a killed process): past the lease, another worker takes the job.
    const later = () => new Date(Date.now() + 5 * 60_000);
    const other = engine({ now: later });
    other.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await other.runUntilIdle();
    const done = await readRun(person, run.id);
    expect(done).toMatchObject({ status: 'succeeded', connection_moved: true });
    const keysAfter = await keysOf(person);
    gated.open();
    await hung.stop();
    await hanging;
    expect(await readRun(person, run.id)).toEqual(done);
    expect(await keysOf(person)).toEqual(keysAfter);
    // Only the finishing attempt's files are kept.
    const row = await runRow(run.id);
    const kept = (await filesOfRun(run.id)).map((file) => path.basename(file)).sort();
    expect(kept).toEqual(
      [row.outputKey!, row.reportHtmlKey!, ...(row.reviewKey ? [row.reviewKey] : [])]
        .map((key) => path.basename(key))
        .sort(),
    );
  });
});

describe('a run whose job was given up', () => {
  it('is ended as failed when read (and no longer blocks its key)', async () => {
    const { person, lite, regular } = await customer('given-up');
    await connectTo(person, regular.apiKey, 'aurora-outfitters');
    const run = await started(person, { target_key: regular.apiKey, source_key: lite.apiKey }, await exportOf('LITE'));
    // Its workers kept dying: the engine marked the job dead without running the handler again.
    await t.db
      .update(jobsTable)
      .set({ status: 'dead', lastError: 'Its worker stopped before finishing, at every attempt.' })
      .where(eq(jobsTable.id, (await runRow(run.id)).jobId!));
    expect(await readRun(person, run.id)).toMatchObject({
      status: 'failed',
      error: { code: 'abandoned', message: 'The upgrade could not be finished. Please try again.' },
    });
    const again = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey },
      await exportOf('LITE'),
    );
    const worker = engine();
    worker.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await worker.runUntilIdle();
    expect(await readRun(person, again.id)).toMatchObject({ status: 'succeeded' });
  });
});

async function runRow(id: number) {
  const [row] = await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.id, id));
  return row!;
}

describe('cancelling', () => {
  it('a queued run: cancelled at once, its job never runs, nothing stored, no connection moved', async () => {
    const { person, lite, regular } = await customer('cancel-queued');
    const before = await keysOf(person);
    const run = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' },
      await exportOf('LITE'),
    );
    const stranger = await newCustomer(t, 'cancel-stranger');
    const foreign = await t.app.inject({
      method: 'POST',
      url: `/theme-file-updates/${run.id}/cancel`,
      headers: auth(stranger.token),
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'run_not_found' });

    const response = await t.app.inject({
      method: 'POST',
      url: `/theme-file-updates/${run.id}/cancel`,
      headers: auth(person.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ run: ThemeFileUpdateRun }>().run).toMatchObject({
      status: 'cancelled',
      error: { code: 'cancelled', message: 'Upgrade cancelled. Nothing was changed.' },
      download_url: null,
    });
    const worker = engine();
    worker.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await worker.runUntilIdle();
    const row = await runRow(run.id);
    expect(row).toMatchObject({ status: 'cancelled', connectionMoved: false, outputKey: null, uploadKey: null });
    const [job] = await t.db.select().from(jobsTable).where(eq(jobsTable.id, row.jobId!));
    expect(job).toMatchObject({ status: 'cancelled' });
    expect(await keysOf(person)).toEqual(before);
    expect(await filesOfRun(run.id)).toEqual([]);

    const again = await t.app.inject({
      method: 'POST',
      url: `/theme-file-updates/${run.id}/cancel`,
      headers: auth(person.token),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'run_finished', error: 'This upgrade has already finished.' });
    // The key is free again.
    await started(person, { target_key: regular.apiKey, source_key: lite.apiKey }, await exportOf('LITE'));
    await worker.runUntilIdle();
  });

  it('a running run: it stops at its next step, writes nothing and moves no connection', async () => {
    const { person, lite, regular } = await customer('cancel-running');
    const before = await keysOf(person);
    const run = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' },
      await exportOf('LITE'),
    );
    const worker = engine();
    const gated = gatedStorage();
    worker.register(themeFileUpdateRunJob(serviceWith(worker, gated.storage)));
    const working = worker.runUntilIdle();
    await gated.reached;
    const response = await t.app.inject({
      method: 'POST',
      url: `/theme-file-updates/${run.id}/cancel`,
      headers: auth(person.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    gated.open();
    await working;
    const row = await runRow(run.id);
    expect(row).toMatchObject({ status: 'cancelled', connectionMoved: false, outputKey: null, reportHtmlKey: null });
    expect(await keysOf(person)).toEqual(before);
    expect(await filesOfRun(run.id)).toEqual([]);
  });
});

describe('the recurring sweep', () => {
  it("deletes expired runs' files once their 7 days are over, and keeps the others'", async () => {
    const { person, lite, regular } = await customer('sweep');
    await connectTo(person, regular.apiKey, 'aurora-outfitters');
    let offset = 0;
    const worker = engine({ now: () => new Date(Date.now() + offset) });
    scheduleThemeFileUpdateJobs(worker, t.app.services.themeFileUpdates);
    const old = await started(person, { target_key: regular.apiKey, source_key: lite.apiKey }, await exportOf('LITE'));
    await worker.runUntilIdle({ kinds: [THEME_FILE_UPDATE_JOB] });
    const oldRow = await runRow(old.id);
    expect(oldRow.status, oldRow.errorMessage ?? '').toBe('succeeded');
    // A run made 6 days later: its files are kept 6 days longer.
    const young = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey },
      await exportOf('LITE'),
    );
    await worker.runUntilIdle({ kinds: [THEME_FILE_UPDATE_JOB] });
    await t.db
      .update(themeFileUpdateRuns)
      .set({ expiresAt: new Date(Date.now() + 13 * DAY_MS) })
      .where(eq(themeFileUpdateRuns.id, young.id));
    const storage = t.app.services.storage;
    expect(await storage.stat(oldRow.outputKey!)).not.toBeNull();

    // Day 8 of the first run: the hourly schedule comes round and deletes its files only.
    offset = 7 * DAY_MS + 60 * 60_000;
    await worker.runUntilIdle({ kinds: [THEME_FILE_UPDATE_SWEEP_JOB] });
    offset += 2 * 60 * 60_000;
    await worker.runUntilIdle({ kinds: [THEME_FILE_UPDATE_SWEEP_JOB] });
    const sweeps = await t.db.select().from(jobsTable).where(eq(jobsTable.kind, THEME_FILE_UPDATE_SWEEP_JOB));
    expect(sweeps.length).toBeGreaterThan(0);
    expect(sweeps.every((job) => job.status === 'done')).toBe(true);
    const swept = await runRow(old.id);
    expect(swept.filesDeletedAt).not.toBeNull();
    for (const key of [oldRow.outputKey!, oldRow.reportHtmlKey!, oldRow.reviewKey].filter(Boolean)) {
      expect(await storage.stat(key!), key!).toBeNull();
    }
    const youngRow = await runRow(young.id);
    expect(youngRow.filesDeletedAt).toBeNull();
    expect(await storage.stat(youngRow.outputKey!)).not.toBeNull();
  });
});

describe('a key that licenses another store moves only with consent naming it', () => {
  it('409 without consent or with another store named; with it the store moves, and the consent is on the run', async () => {
    const { person, lite, regular } = await customer('consent');
    await connectTo(person, regular.apiKey, 'second-shop');
    const preview = await t.app.inject({
      method: 'GET',
      url: `/theme-file-updates/preview?target_key=${regular.apiKey}&source_key=${lite.apiKey}`,
      headers: auth(person.token),
    });
    expect(preview.json()).toMatchObject({
      source_store: 'aurora-outfitters.myshopify.com',
      target_store: 'second-shop.myshopify.com',
    });
    const before = await keysOf(person);
    const theme = await exportOf('LITE');
    const fields = { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' };
    for (const consent of [{}, { consent_store: 'aurora-outfitters.myshopify.com' }, { consent_store: 'other' }]) {
      const refused = await post(person, { ...fields, ...consent }, theme);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual({
        error: targetConnectedError('second-shop.myshopify.com'),
        code: 'target_connected',
      });
    }
    expect(await t.db.select().from(themeFileUpdateRuns).where(eq(themeFileUpdateRuns.userId, person.id))).toEqual([]);
    expect(await keysOf(person)).toEqual(before);

    // Not moving the connection needs no consent: the other store keeps its license.
    const kept = await started(person, { ...fields, move_connection: 'false' }, theme);
    const worker = engine();
    worker.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await worker.runUntilIdle();
    expect(await readRun(person, kept.id)).toMatchObject({ status: 'succeeded', connection_moved: false });
    expect(await keysOf(person)).toEqual(before);

    const run = await started(person, { ...fields, consent_store: 'Second-Shop.myshopify.com ' }, theme);
    expect(run.consent_store).toBe('second-shop.myshopify.com');
    await worker.runUntilIdle();
    expect(await readRun(person, run.id)).toMatchObject({ status: 'succeeded', connection_moved: true });
    const after = await keysOf(person);
    expect(after.find((key) => key.api_key === regular.apiKey)).toMatchObject({
      myshopify: 'aurora-outfitters.myshopify.com',
    });
  });

  it('a target connected to another store after the upload: the job refuses to move it (the run fails, nothing moves)', async () => {
    const { person, lite, regular } = await customer('consent-late');
    const run = await started(
      person,
      { target_key: regular.apiKey, source_key: lite.apiKey, move_connection: 'true' },
      await exportOf('LITE'),
    );
    await connectTo(person, regular.apiKey, 'third-shop');
    const before = await keysOf(person);
    const worker = engine();
    worker.register(themeFileUpdateRunJob(t.app.services.themeFileUpdates));
    await worker.runUntilIdle();
    expect(await readRun(person, run.id)).toMatchObject({
      status: 'failed',
      error: { code: 'target_connected', message: targetConnectedError('third-shop.myshopify.com') },
      connection_moved: false,
    });
    expect(await keysOf(person)).toEqual(before);
  });
});
