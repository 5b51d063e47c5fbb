/**
 * Moves a merchant's theme (their store's export) onto a new version (ADR 019, ADR 039). A pure function of its input
 * files: no database, no HTTP, a progress callback and an abort signal (so a job can run it).
 *
 * 1. Detect: every file of the export is hashed and compared with the stored releases' manifests; the release with
 *    the most identical files is the base (the version the theme states is only a tie-break).
 * 2. Merge, file by file, three ways (base, the export, the new version): a file the merchant left alone is the new
 *    version's, byte for byte (or gone when the new version removed it); a file they added is copied byte for byte;
 *    JSON they changed gets only their changes, written into the new version's text in place (json-merge.ts,
 *    locale-merge.ts); a Liquid/CSS/JS file they changed stays theirs when the new version did not change it, else
 *    the new version's is in the theme and theirs in the review zip, with a diff in the report.
 *    Without a confident base: two ways, and a file is the merchant's only when no release has it.
 * 3. Write the output zip (entries copied raw, merged JSON new) and the review zip, atomically.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import type { ReportItem } from '@keyport/shared/contracts/theme-file-updates';
import type { Tier } from '@keyport/shared/domain/tiers';
import { manifestOfScan } from '../theme-zip/manifest';
import { DEFAULT_THEME_ZIP_LIMITS, type ThemeZipLimits } from '../theme-zip/scan';
import { injectLicenseToken } from '../theme-zip/settings-data';
import { detectRelease, detectionReport, type FileManifest, type KnownRelease } from './detect-release';
import { ThemeUpdateError, asUpdateErrors } from './errors';
import { cleanAddedTemplate, mergeStructuredJson } from './json-merge';
import { mergeLocale } from './locale-merge';
import { ReportBuilder, type ThemeInfo, type ThemeUpdateResult } from './report';
import { unifiedDiff } from './text-diff';
import { readTexts, withThemeAtRoot, type OpenTheme } from './theme-files';
import { baseThemeName, themeInfoOf } from './theme-info';
import { SETTINGS_DATA_FILE, buildThemeSchema, isSchemaSource, type ThemeSchema } from './theme-schema';
import { writeZipAtomically, type OutputPart } from './zip-output';

export type { KnownRelease } from './detect-release';

export type UpdatePhase = 'detect' | 'merge' | 'write';

export interface ThemeUpdateInput {
  /** The merchant's export (Shopify admin → Download theme file), on disk. */
  merchantZipPath: string;
  /** Stored releases the export may have started from, newest first: its edition's, and for a run across
   *  editions the others'. */
  releases: readonly KnownRelease[];
  /** The new version: its zip on disk and, when known, its manifest (else computed). */
  target: { zipPath: string; manifest?: FileManifest };
  /** The migration maps from the detected release (null: none detected) to the new version, oldest first. */
  migrationsFrom?: (
    base: KnownRelease | null,
    statedVersion: string | null,
  ) => readonly MigrationMap[] | Promise<readonly MigrationMap[]>;
  /** The target key's current theme token, written into the license setting as downloads do. */
  token: string;
  outputPath: string;
  /** The edition the merchant's theme must be when it says (the source license's); else 'edition_mismatch'. */
  expectedSourceEdition?: Tier;
  /** Tie-break between releases with as many identical files: the export's likeliest editions first. */
  preferredEditions?: readonly Tier[];
  /** Limits for every input zip (bombs, entry counts). Default DEFAULT_THEME_ZIP_LIMITS. */
  limits?: ThemeZipLimits;
  onProgress?: (progress: { phase: UpdatePhase; done: number; total: number }) => void;
  signal?: AbortSignal;
}

/** Where the merchant's copies of the files kept aside go (written only when there is at least one). */
export function reviewZipPathFor(outputPath: string): string {
  return `${outputPath}.review.zip`;
}

const DIFF_SOURCE_MAX_BYTES = 512 * 1024;

const isTemplateJson = (name: string) => /^templates\/.+\.json$/.test(name) || /^sections\/[^/]+\.json$/.test(name);
const isLocaleJson = (name: string) => /^locales\/[^/]+\.json$/.test(name);

export async function updateTheme(input: ThemeUpdateInput): Promise<ThemeUpdateResult> {
  const limits = input.limits ?? DEFAULT_THEME_ZIP_LIMITS;
  const workDir = await mkdtemp(join(tmpdir(), 'keyport-upgrade-'));
  try {
    return await asUpdateErrors(async () => {
      return await withThemeAtRoot(input.merchantZipPath, join(workDir, 'merchant.zip'), limits, (merchant) =>
        withThemeAtRoot(input.target.zipPath, join(workDir, 'target.zip'), limits, (target) =>
          detectAndMerge(input, limits, workDir, merchant, target),
        ),
      );
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function detectAndMerge(
  input: ThemeUpdateInput,
  limits: ThemeZipLimits,
  workDir: string,
  merchant: OpenTheme,
  target: OpenTheme,
): Promise<ThemeUpdateResult> {
  const progress = (phase: UpdatePhase, done: number, total: number) => {
    input.signal?.throwIfAborted();
    input.onProgress?.({ phase, done, total });
  };
  const source = await themeInfoOf(merchant);
  const targetInfo = await themeInfoOf(target);
  assertSameTheme(input, source, targetInfo);
  const merchantManifest = await manifestOfScan(merchant.path, merchant.scan, merchant.zipfile, (done, total) =>
    progress('detect', done, total),
  );
  const targetManifest = input.target.manifest ?? (await manifestOfScan(target.path, target.scan, target.zipfile));
  const detection = detectRelease(merchantManifest, input.releases, {
    statedVersion: source.version,
    preferredEditions: input.preferredEditions ?? (source.edition ? [source.edition] : []),
  });
  const base = detection.confident ? detection.release : null;
  const maps = (await input.migrationsFrom?.(base, source.version)) ?? [];
  const run = async (baseTheme: OpenTheme | null) => {
    const merge = new FileMerge(input, merchant, target, baseTheme, {
      merchant: merchantManifest,
      target: targetManifest,
      base: base?.manifest ?? null,
      known: input.releases,
      maps,
    });
    await merge.run(progress);
    const report = merge.report.build(detectionReport(detection));
    if (base === null) report.warnings.unshift(TWO_WAY_WARNING);
    return { ...(await merge.write(progress)), report, source, target: targetInfo };
  };
  if (base === null) return run(null);
  return withThemeAtRoot(await base.zipPath(), join(workDir, 'base.zip'), limits, run);
}

export const TWO_WAY_WARNING =
  'We could not tell which release your theme started from, so your changes could not be told from the old ' +
  'version’s: files that differ from the new version are kept aside for you to review, the new version’s are in ' +
  'the theme, and a file counts as yours only when no release has it.';

function assertSameTheme(input: ThemeUpdateInput, source: ThemeInfo, target: ThemeInfo): void {
  if (input.expectedSourceEdition && source.edition !== null && source.edition !== input.expectedSourceEdition) {
    throw new ThemeUpdateError(
      'edition_mismatch',
      `The uploaded theme is the ${source.edition} edition, but the source license is ${input.expectedSourceEdition}`,
    );
  }
  if (
    source.themeName !== null &&
    target.themeName !== null &&
    baseThemeName(source.themeName) !== baseThemeName(target.themeName)
  ) {
    throw new ThemeUpdateError(
      'theme_mismatch',
      `The uploaded theme is ${source.themeName}, not ${target.themeName}; upload the theme your store runs`,
    );
  }
}

interface Manifests {
  merchant: FileManifest;
  target: FileManifest;
  /** The detected release's; null: two-way. */
  base: FileManifest | null;
  /** Every stored release (for two-way: is a file any release's?). */
  known: readonly KnownRelease[];
  maps: readonly MigrationMap[];
}

/** The per-file decisions of one run and the zips they make. */
class FileMerge {
  readonly report = new ReportBuilder();
  /** Target entries replaced by a new text (merged JSON, settings with the token), by name. */
  private readonly replaced = new Map<string, string>();
  /** Files whose merchant bytes go into the theme (added by them, or edited where the new version did not). */
  private readonly ours = new Set<string>();
  private readonly newFiles: { name: string; text: string }[] = [];
  /** Files whose merchant copy goes into the review zip. */
  private readonly review: string[] = [];
  private schema: ThemeSchema | null = null;

  constructor(
    private readonly input: ThemeUpdateInput,
    private readonly merchant: OpenTheme,
    private readonly target: OpenTheme,
    private readonly base: OpenTheme | null,
    private readonly manifests: Manifests,
  ) {}

  async run(progress: (phase: UpdatePhase, done: number, total: number) => void): Promise<void> {
    const names = [...this.merchant.byName.keys()];
    let done = 0;
    for (const name of names) {
      if (name !== SETTINGS_DATA_FILE) await this.mergeFile(name);
      progress('merge', (done += 1), names.length + 1);
    }
    await this.mergeSettingsData();
    this.reportTargetOnlyFiles();
    progress('merge', names.length + 1, names.length + 1);
  }

  private async mergeFile(name: string): Promise<void> {
    const { merchant: ours, target: theirs, base: baseManifest } = this.manifests;
    const m = ours[name]!;
    const t = own(theirs, name);
    if (baseManifest === null) {
      await this.mergeTwoWay(name, m, t);
      return;
    }
    const b = own(baseManifest, name);
    if (b === undefined) {
      await this.mergeAdded(name, m, t);
      return;
    }
    if (m === b) {
      // Untouched by the merchant: the new version's file, or none.
      if (t === undefined) this.report.vendor.removed.push(name);
      else if (t === b) this.report.vendor.unchanged += 1;
      else this.report.vendor.updated.push(name);
      return;
    }
    if (t === undefined) {
      this.keepAside(
        name,
        'changed by you; the new version no longer has this file: your copy is in the review download',
        await this.diffAgainst(this.base, name, 'the release you started from'),
      );
      return;
    }
    if (t === m) {
      this.fileItem('kept', name, 'changed by you; the new version has the same file');
      return;
    }
    if (isTemplateJson(name) || isLocaleJson(name)) {
      await this.mergeJson(name, isLocaleJson(name) ? 'locale' : 'template');
      return;
    }
    if (t === b) {
      // Only the merchant changed it: theirs stays.
      this.ours.add(name);
      this.fileItem('kept', name, 'edited by you; the new version did not change this file, so yours is kept', {
        diff: await this.diffAgainst(this.base, name, 'the release you started from'),
      });
      return;
    }
    this.keepAside(
      name,
      'edited by you and changed in the new version: the new version’s is in the theme, yours is in the review download',
      await this.diffAgainst(this.base, name, 'the release you started from'),
    );
  }

  /** A file the base release does not have: the merchant's own. */
  private async mergeAdded(name: string, m: string, t: string | undefined): Promise<void> {
    if (t === m) {
      this.fileItem('kept', name, 'added by you; the new version has the same file');
      return;
    }
    if (t !== undefined) {
      this.keepAside(
        name,
        'added by you, but the new version brings a file of this name: its version is in the theme, yours is in the review download',
        await this.diffAgainst(this.target, name, 'the new version'),
      );
      return;
    }
    const cleaned = isTemplateJson(name) ? await this.cleanAdded(name) : null;
    if (cleaned === null) {
      this.ours.add(name);
      this.fileItem('kept', name, 'added by you, copied as it is');
      return;
    }
    // Shopify refuses a theme whose template names a section it does not have: the theme gets the file without what
    // the new version has no place for (each reported), the merchant's whole file goes to the review download.
    this.newFiles.push({ name, text: cleaned.text });
    for (const item of cleaned.dropped) this.report.add(item);
    this.keepAside(
      name,
      'added by you; what the new version has no place for (listed as dropped) is left out of the theme, your whole file is in the review download',
    );
  }

  private async cleanAdded(name: string) {
    const text = await this.merchant.text(name);
    return text === undefined
      ? null
      : cleanAddedTemplate({ file: name, text, schema: await this.targetSchema(), maps: this.manifests.maps });
  }

  /** No release detected: a file is the merchant's only when no release has it; a differing one is kept aside. */
  private async mergeTwoWay(name: string, m: string, t: string | undefined): Promise<void> {
    const vendorCopy = this.manifests.known.some((release) => own(release.manifest, name) === m);
    if (vendorCopy || t === m) {
      if (t === undefined) this.report.vendor.removed.push(name);
      else if (t === m) this.report.vendor.unchanged += 1;
      else this.report.vendor.updated.push(name);
      return;
    }
    if (t !== undefined) {
      this.keepAside(
        name,
        'differs from the new version, and we cannot tell your changes from the old version’s: the new version’s is in the theme, yours is in the review download',
        await this.diffAgainst(this.target, name, 'the new version'),
      );
      return;
    }
    if (this.manifests.known.some((release) => own(release.manifest, name) !== undefined)) {
      this.keepAside(
        name,
        'the new version no longer has this file, and yours differs from every release we know: your copy is in the review download',
      );
      return;
    }
    await this.mergeAdded(name, m, undefined);
  }

  private async mergeJson(name: string, kind: 'template' | 'locale'): Promise<void> {
    const [base, merchant, target] = await Promise.all([
      this.base!.text(name),
      this.merchant.text(name),
      this.target.text(name),
    ]);
    const text =
      kind === 'locale'
        ? mergeLocale({ file: name, base: base!, merchant: merchant!, target: target!, report: this.report })
        : mergeStructuredJson({
            file: name,
            kind: 'template',
            base: base!,
            merchant: merchant!,
            target: target!,
            schema: await this.targetSchema(),
            maps: this.manifests.maps,
            report: this.report,
          });
    if (text !== target) this.replaced.set(name, text);
  }

  /** settings_data.json: the merchant's changes merged in (or, two ways, their values), then the token. */
  private async mergeSettingsData(): Promise<void> {
    const name = SETTINGS_DATA_FILE;
    const targetText = (await this.target.text(name)) ?? null;
    const merchantText = await this.merchant.text(name);
    let text = targetText;
    const b = this.manifests.base === null ? undefined : own(this.manifests.base, name);
    const untouched = b !== undefined && this.manifests.merchant[name] === b;
    if (merchantText !== undefined && !untouched) {
      if (targetText === null) {
        text = merchantText;
        this.fileItem('kept', name, 'your settings (the new version has no settings file)');
      } else {
        text = mergeStructuredJson({
          file: name,
          kind: 'settings_data',
          base: b === undefined ? null : ((await this.base!.text(name)) ?? null),
          merchant: merchantText,
          target: targetText,
          schema: await this.targetSchema(),
          maps: this.manifests.maps,
          report: this.report,
        });
      }
    }
    const withToken = injectLicenseToken(text, this.input.token);
    if (targetText === null) this.newFiles.push({ name, text: withToken });
    else this.replaced.set(name, withToken);
  }

  /** Files of the new version the merchant's export does not have. */
  private reportTargetOnlyFiles(): void {
    const base = this.manifests.base;
    for (const name of this.target.byName.keys()) {
      if (this.merchant.byName.has(name) || name === SETTINGS_DATA_FILE) continue;
      if (base !== null && own(base, name) !== undefined) {
        this.fileItem(
          'dropped',
          name,
          'you had removed this file; the new version’s is in the theme, as other files may use it',
        );
      } else {
        this.report.vendor.added.push(name);
      }
    }
  }

  private async targetSchema(): Promise<ThemeSchema> {
    this.schema ??= buildThemeSchema(await readTexts(this.target, isSchemaSource));
    return this.schema;
  }

  private keepAside(name: string, reason: string, diff?: string): void {
    this.review.push(name);
    this.fileItem('review', name, reason, { diff });
  }

  private async diffAgainst(theme: OpenTheme | null, name: string, label: string): Promise<string | undefined> {
    if (theme === null) return undefined;
    const before = await theme.bytes(name, DIFF_SOURCE_MAX_BYTES);
    const after = await this.merchant.bytes(name, DIFF_SOURCE_MAX_BYTES);
    if (before === undefined || after === undefined) {
      return theme.byName.has(name) ? `(no diff: ${name} is larger than 512 KB; compare it with your copy)` : undefined;
    }
    return unifiedDiff(name, before, after, label);
  }

  private fileItem(group: ReportItem['group'], file: string, reason: string, extra: { diff?: string } = {}): void {
    this.report.add({ group, kind: 'file', file, reason, ...(extra.diff === undefined ? {} : { diff: extra.diff }) });
  }

  /** Writes the review zip (when a file was kept aside), then the output: an output always has its review zip. */
  async write(
    progress: (phase: UpdatePhase, done: number, total: number) => void,
  ): Promise<{ reviewFiles: string[]; outputEntries: number }> {
    // Merchant entries are copied raw: every one was decompressed and its CRC-32 checked when it was hashed, so a
    // corrupt upload was refused before anything is written.
    const merchantEntry = (name: string) => this.merchant.byName.get(name)!;
    const parts: OutputPart[] = [];
    for (const [name, item] of this.target.byName) {
      const replacement = this.replaced.get(name);
      if (this.ours.has(name)) parts.push({ kind: 'raw', from: this.merchant.path, item: merchantEntry(name) });
      else if (replacement === undefined) parts.push({ kind: 'raw', from: this.target.path, item });
      else parts.push({ kind: 'new', name, text: replacement });
    }
    for (const name of this.ours) {
      if (!this.target.byName.has(name))
        parts.push({ kind: 'raw', from: this.merchant.path, item: merchantEntry(name) });
    }
    for (const file of this.newFiles) parts.push({ kind: 'new', name: file.name, text: file.text });
    progress('write', 0, 2);
    const reviewPath = reviewZipPathFor(this.input.outputPath);
    if (this.review.length > 0) {
      await writeZipAtomically(
        reviewPath,
        this.review.map((name) => ({ kind: 'raw', from: this.merchant.path, item: merchantEntry(name) })),
      );
    } else {
      await rm(reviewPath, { force: true });
    }
    progress('write', 1, 2);
    try {
      await writeZipAtomically(this.input.outputPath, parts);
    } catch (error) {
      await rm(reviewPath, { force: true });
      throw error;
    }
    progress('write', 2, 2);
    return { reviewFiles: [...this.review], outputEntries: parts.length };
  }
}

function own(manifest: FileManifest, name: string): string | undefined {
  return Object.hasOwn(manifest, name) ? manifest[name] : undefined;
}
