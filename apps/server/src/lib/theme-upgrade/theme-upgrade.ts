/**
 * Moves a merchant's theme (their store's export) onto the target release: the target's files, the merchant's
 * settings, templates, section groups and locale overrides merged in where the target accepts them, the merchant's
 * own files copied, the files they edited kept aside for review. Untouched entries are copied raw from their zip
 * (local header, data, data descriptor); only merged JSON is written anew. Memory: the JSON files and section
 * schemas (each at most 8 MiB) plus one copy buffer — never a whole zip.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import type { ZipFile } from 'yauzl';
import type { Tier } from '@keyport/shared/domain/tiers';
import { BufferedWriter, repackThemeAtRoot } from '../theme-zip/repack';
import {
  DEFAULT_THEME_ZIP_LIMITS,
  centralFieldsOf,
  readEntryBytes,
  verifyEntryContents,
  withScannedThemeZip,
  type ScannedEntry,
  type ThemeZipLimits,
  type ThemeZipScan,
} from '../theme-zip/scan';
import { injectLicenseToken } from '../theme-zip/settings-data';
import {
  FLAG_UTF8,
  assertOutputFits,
  buildCentralHeader,
  buildEndRecord,
  buildLocalHeader,
  readRangeChunks,
  toDosDateTime,
} from '../theme-zip/zip-structures';
import { ThemeUpgradeError, asUpgradeErrors } from './errors';
import { parseLenientJson } from './lenient-json';
import {
  emptyMergeReport,
  globalSettingsOf,
  mergeLocale,
  mergeSettingsData,
  mergeTemplate,
  parseLiquidSchema,
  type SectionSchema,
  type TargetSchema,
} from './merge';
import type { ThemeUpgradeReport } from './report';
import { isPlainObject } from './setting-types';
import { editionFromThemeFiles } from './theme-info';

export type { ThemeUpgradeReport } from './report';

export interface ThemeUpgradeInput {
  /** The merchant's export (Shopify admin → Download theme file), on disk. */
  merchantZipPath: string;
  /** The release of the merchant's current version, of the source edition (to tell "added" and "edited" files);
   *  null when that release is unknown (then no file counts as edited, merchant-only files count as added). */
  originalZipPath: string | null;
  /** The target edition's latest release, on disk. */
  targetZipPath: string;
  /** The target key's current theme token, written into the license setting as downloads do. */
  token: string;
  outputPath: string;
  /** Optional: the edition the merchant's theme must be (the source license's tier); mismatch → ThemeUpgradeError 'edition_mismatch'. */
  expectedSourceEdition?: 'LITE' | 'REGULAR' | 'PRO';
  /** Limits for every input zip (bombs, entry counts). Default DEFAULT_THEME_ZIP_LIMITS. */
  limits?: ThemeZipLimits;
}

/** Where the merchant's copies of edited files go (written only when there is at least one). */
export function reviewZipPathFor(outputPath: string): string {
  return `${outputPath}.review.zip`;
}

const MIB = 1024 * 1024;
const MAX_JSON_FILE_BYTES = 8 * MIB;
/** All JSON and liquid schemas read into memory for one upgrade, per zip. */
const MAX_PARSED_BYTES_PER_ZIP = 48 * MIB;
const COPY_CHUNK_BYTES = 512 * 1024;
const SETTINGS_DATA = 'config/settings_data.json';
const SETTINGS_SCHEMA = 'config/settings_schema.json';

const isTemplateJson = (name: string) => /^templates\/.+\.json$/.test(name);
const isSectionGroupJson = (name: string) => /^sections\/[^/]+\.json$/.test(name);
const isLocaleJson = (name: string) => /^locales\/[^/]+\.json$/.test(name);
const isMergedJson = (name: string) =>
  name === SETTINGS_DATA || isTemplateJson(name) || isSectionGroupJson(name) || isLocaleJson(name);
const needsTargetText = (name: string) =>
  isMergedJson(name) ||
  name === SETTINGS_SCHEMA ||
  /^sections\/[^/]+\.liquid$/.test(name) ||
  /^blocks\/[^/]+\.liquid$/.test(name) ||
  name === 'snippets/license-check.liquid';
const isFile = (entry: ScannedEntry) => !entry.entry.fileName.endsWith('/');

/** An open, scanned zip with the texts read from it. */
interface OpenTheme {
  path: string;
  scan: ThemeZipScan;
  zipfile: ZipFile;
  byName: Map<string, ScannedEntry>;
  texts: Map<string, string>;
}

export async function upgradeTheme(input: ThemeUpgradeInput): Promise<ThemeUpgradeReport> {
  const limits = input.limits ?? DEFAULT_THEME_ZIP_LIMITS;
  const workDir = await mkdtemp(join(tmpdir(), 'keyport-upgrade-'));
  try {
    return await asUpgradeErrors(async () => {
      const merchantPath = await atRoot(input.merchantZipPath, join(workDir, 'merchant.zip'), limits);
      const targetPath = await atRoot(input.targetZipPath, join(workDir, 'target.zip'), limits);
      const originalPath =
        input.originalZipPath === null
          ? null
          : await atRoot(input.originalZipPath, join(workDir, 'original.zip'), limits);
      return await withTheme(merchantPath, limits, isMergedJsonOrInfo, (merchant) =>
        withTheme(targetPath, limits, needsTargetText, (target) =>
          withOptionalTheme(originalPath, limits, isMergedJsonOrInfo, (original) =>
            runUpgrade(input, merchant, target, original),
          ),
        ),
      );
    });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

const isMergedJsonOrInfo = (name: string) =>
  isMergedJson(name) || name === SETTINGS_SCHEMA || name === 'snippets/license-check.liquid';

/** The zip itself when its theme is at the root, else a copy with the theme moved to the root. */
async function atRoot(path: string, copyPath: string, limits: ThemeZipLimits): Promise<string> {
  const repacked = await repackThemeAtRoot(path, copyPath, limits);
  return repacked === null ? path : copyPath;
}

async function withOptionalTheme<T>(
  path: string | null,
  limits: ThemeZipLimits,
  wanted: (name: string) => boolean,
  use: (theme: OpenTheme | null) => Promise<T>,
): Promise<T> {
  return path === null ? use(null) : withTheme(path, limits, wanted, use);
}

async function withTheme<T>(
  path: string,
  limits: ThemeZipLimits,
  wanted: (name: string) => boolean,
  use: (theme: OpenTheme) => Promise<T>,
): Promise<T> {
  return withScannedThemeZip(path, limits, async (scan, zipfile) => {
    const byName = new Map(scan.entries.filter(isFile).map((item) => [item.entry.fileName, item]));
    const texts = new Map<string, string>();
    let total = 0;
    for (const [name, { entry }] of byName) {
      if (!wanted(name)) continue;
      if (entry.uncompressedSize > MAX_JSON_FILE_BYTES) {
        throw new ThemeUpgradeError('theme_file_too_large', `${name} is too large (max 8 MB)`);
      }
      total += entry.uncompressedSize;
      if (total > MAX_PARSED_BYTES_PER_ZIP) {
        throw new ThemeUpgradeError('theme_file_too_large', 'The theme has too much JSON and section code (max 48 MB)');
      }
      texts.set(name, (await readEntryBytes(zipfile, entry)).toString('utf8'));
    }
    return use({ path, scan, zipfile, byName, texts });
  });
}

function parsedText(theme: OpenTheme, name: string): { leading: string; value: unknown } | undefined {
  const text = theme.texts.get(name);
  return text === undefined ? undefined : parseLenientJson(text, name);
}

export function themeInfoOf(theme: { texts: Map<string, string> }): {
  edition: Tier | null;
  version: string | null;
  themeName: string | null;
} {
  const schemaText = theme.texts.get(SETTINGS_SCHEMA);
  let info: Record<string, unknown> | undefined;
  if (schemaText !== undefined) {
    try {
      const schema = parseLenientJson(schemaText, SETTINGS_SCHEMA).value;
      if (Array.isArray(schema)) {
        info = schema.find(
          (group): group is Record<string, unknown> => isPlainObject(group) && group.name === 'theme_info',
        );
      }
    } catch {
      info = undefined;
    }
  }
  const themeName =
    typeof info?.theme_name === 'string' && info.theme_name.trim() !== '' ? info.theme_name.trim() : null;
  const version =
    typeof info?.theme_version === 'string' && info.theme_version.trim() !== '' ? info.theme_version.trim() : null;
  return {
    edition: editionFromThemeFiles(themeName, theme.texts.get('snippets/license-check.liquid')),
    version,
    themeName,
  };
}

/** Reads source and target facts without building anything (for the page that names them before the upgrade). */
export async function readThemeInfo(
  zipPath: string,
  limits: ThemeZipLimits = DEFAULT_THEME_ZIP_LIMITS,
): Promise<{ edition: Tier | null; version: string | null; themeName: string | null }> {
  return asUpgradeErrors(() =>
    withScannedThemeZip(zipPath, limits, async (scan, zipfile) => {
      const texts = new Map<string, string>();
      for (const name of [SETTINGS_SCHEMA, 'snippets/license-check.liquid']) {
        const entry = scan.entries.find((item) => item.entry.fileName === scan.prefix + name)?.entry;
        if (entry && entry.uncompressedSize <= MAX_JSON_FILE_BYTES) {
          texts.set(name, (await readEntryBytes(zipfile, entry)).toString('utf8'));
        }
      }
      return themeInfoOf({ texts });
    }),
  );
}

function buildTargetSchema(target: OpenTheme): TargetSchema {
  const sections = new Map<string, SectionSchema>();
  const themeBlocks = new Map<string, SectionSchema>();
  for (const [name, text] of target.texts) {
    const section = /^sections\/([^/]+)\.liquid$/.exec(name)?.[1];
    const block = /^blocks\/([^/]+)\.liquid$/.exec(name)?.[1];
    if (section === undefined && block === undefined) continue;
    const schema = parseLiquidSchema(text);
    if (schema === null) continue;
    if (section !== undefined) sections.set(section, schema);
    if (block !== undefined) themeBlocks.set(block, schema);
  }
  const schemaJson = parsedText(target, SETTINGS_SCHEMA)?.value;
  return { globalSettings: globalSettingsOf(schemaJson), sections, themeBlocks };
}

/** Same bytes, decided on the central directory: uncompressed size and CRC-32 (see ADR 019). */
function sameContent(a: ScannedEntry | undefined, b: ScannedEntry | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.entry.uncompressedSize === b.entry.uncompressedSize &&
    a.entry.crc32 === b.entry.crc32
  );
}

type Output = { kind: 'raw'; from: OpenTheme; item: ScannedEntry } | { kind: 'new'; name: string; text: string };

async function runUpgrade(
  input: ThemeUpgradeInput,
  merchant: OpenTheme,
  target: OpenTheme,
  original: OpenTheme | null,
): Promise<ThemeUpgradeReport> {
  const sourceInfo = themeInfoOf(merchant);
  const targetInfo = themeInfoOf(target);
  if (
    input.expectedSourceEdition &&
    sourceInfo.edition !== null &&
    sourceInfo.edition !== input.expectedSourceEdition
  ) {
    throw new ThemeUpgradeError(
      'edition_mismatch',
      `The uploaded theme is the ${sourceInfo.edition} edition, but the source license is ${input.expectedSourceEdition}`,
    );
  }
  if (
    sourceInfo.themeName !== null &&
    targetInfo.themeName !== null &&
    baseName(sourceInfo.themeName) !== baseName(targetInfo.themeName)
  ) {
    throw new ThemeUpgradeError(
      'theme_mismatch',
      `The uploaded theme is ${sourceInfo.themeName}, not ${targetInfo.themeName}; upload the theme your store runs`,
    );
  }
  const schema = buildTargetSchema(target);
  const merge = emptyMergeReport();
  const files: ThemeUpgradeReport['files'] = {
    added: [],
    edited: [],
    unverified: [],
    updated: [],
    kept: [],
    removedInTarget: [],
    merged: [],
    newInTarget: [],
    review: [],
  };
  const replacements = new Map<string, string>();
  const extras: Output[] = [];
  const reviewItems: ScannedEntry[] = [];

  for (const [name, item] of merchant.byName) {
    const targetItem = target.byName.get(name);
    const originalItem = original?.byName.get(name);
    if (isMergedJson(name)) {
      const merged = mergeJsonFile(name, merchant, target, original, schema, merge, input.token);
      if (merged === 'copy') {
        files.added.push(name);
        extras.push({ kind: 'raw', from: merchant, item });
      } else if (merged === 'target') {
        files.updated.push(name);
      } else {
        files.merged.push(name);
        if (targetItem) replacements.set(name, merged);
        else extras.push({ kind: 'new', name, text: merged });
      }
      continue;
    }
    if (original !== null && originalItem !== undefined) {
      if (sameContent(item, originalItem)) {
        (targetItem ? files.updated : files.removedInTarget).push(name);
      } else {
        files.edited.push(name);
        reviewItems.push(item);
      }
      continue;
    }
    if (targetItem === undefined) {
      files.added.push(name);
      extras.push({ kind: 'raw', from: merchant, item });
    } else if (sameContent(item, targetItem)) {
      files.kept.push(name);
    } else if (original === null) {
      files.unverified.push(name);
      reviewItems.push(item);
    } else {
      // Added by the merchant, and the new release brings a file of the same name: the release's wins.
      files.edited.push(name);
      reviewItems.push(item);
    }
  }
  if (!merchant.byName.has(SETTINGS_DATA)) {
    const merged = mergeJsonFile(SETTINGS_DATA, merchant, target, original, schema, merge, input.token);
    if (typeof merged === 'string' && merged !== 'copy' && merged !== 'target') {
      if (target.byName.has(SETTINGS_DATA)) replacements.set(SETTINGS_DATA, merged);
      else extras.push({ kind: 'new', name: SETTINGS_DATA, text: merged });
    }
  }
  for (const name of target.byName.keys()) if (!merchant.byName.has(name)) files.newInTarget.push(name);
  files.review = [...files.edited, ...files.unverified];

  // Added files are copied raw: check their data first, so a corrupt upload is refused, not passed on.
  await verifyEntryContents(
    merchant.zipfile,
    extras.flatMap((part) => (part.kind === 'raw' ? [part.item] : [])),
  );

  const outputs: Output[] = [];
  for (const item of target.scan.entries) {
    if (!isFile(item)) continue;
    const replacement = replacements.get(item.entry.fileName);
    outputs.push(
      replacement === undefined
        ? { kind: 'raw', from: target, item }
        : { kind: 'new', name: item.entry.fileName, text: replacement },
    );
  }
  outputs.push(...extras);

  // The review zip first: the output appears last, so an output on disk always comes with its review zip.
  const reviewPath = reviewZipPathFor(input.outputPath);
  if (reviewItems.length > 0) {
    await writeZipAtomically(
      reviewPath,
      reviewItems.map((item) => ({ kind: 'raw', from: merchant, item })),
    );
  } else {
    await rm(reviewPath, { force: true });
  }
  try {
    await writeZipAtomically(input.outputPath, outputs);
  } catch (error) {
    await rm(reviewPath, { force: true });
    throw error;
  }

  return {
    source: sourceInfo,
    target: targetInfo,
    originalKnown: original !== null,
    ...merge,
    files,
    counts: {
      settingsKept: merge.settings.kept.length,
      settingsChanged: merge.settings.changed.length,
      settingsDropped: merge.settings.dropped.length,
      sectionsKept: merge.sections.kept.length,
      sectionsDropped: merge.sections.dropped.length,
      filesAdded: files.added.length,
      filesEdited: files.edited.length + files.unverified.length,
      filesInOutput: outputs.length,
      localeKeysKept: merge.locales.kept.length,
      localeKeysDropped: merge.locales.dropped.length,
    },
  };
}

function baseName(themeName: string): string {
  return themeName
    .replace(/\b(lite|regular|pro)\b/gi, '')
    .replace(/[\s\-–—_]+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * The merged text of one merchant JSON file; 'copy' when the file is the merchant's alone and needs no merge (a new
 * locale), 'target' when the merchant left the vendor's file untouched (the target's version is used).
 */
function mergeJsonFile(
  name: string,
  merchant: OpenTheme,
  target: OpenTheme,
  original: OpenTheme | null,
  schema: TargetSchema,
  report: ReturnType<typeof emptyMergeReport>,
  token: string,
): string | 'copy' | 'target' {
  const merchantJson = parsedText(merchant, name);
  const targetJson = parsedText(target, name);
  if (name === SETTINGS_DATA) {
    const sourceGlobal = globalSettingsOf(parsedText(merchant, SETTINGS_SCHEMA)?.value);
    const document = mergeSettingsData(merchantJson?.value, targetJson?.value ?? {}, sourceGlobal, schema, report);
    // Shopify's comment header: the target's, else the merchant's (without a BOM: the file is written as UTF-8).
    const leading = (targetJson?.leading || merchantJson?.leading || '').replace(/^\uFEFF/, '');
    return injectLicenseToken(`${leading}${JSON.stringify(document, null, 2)}\n`, token);
  }
  const merchantItem = merchant.byName.get(name);
  const originalItem = original?.byName.get(name);
  if (isLocaleJson(name)) {
    if (targetJson === undefined) return 'copy';
    const originalJson = original === null ? undefined : parsedText(original, name);
    // Known original without this locale: every merchant text is their own (compared against an empty file).
    const reference = original === null ? undefined : (originalJson?.value ?? {});
    const value = mergeLocale(merchantJson?.value, reference, targetJson.value, name, report);
    return `${targetJson.leading}${JSON.stringify(value, null, 2)}\n`;
  }
  // templates/*.json and section groups: untouched by the merchant → the target's version.
  if (targetJson !== undefined && sameContent(merchantItem, originalItem)) return 'target';
  const value = mergeTemplate(merchantJson?.value, name, schema, report);
  return `${merchantJson?.leading ?? ''}${JSON.stringify(value, null, 2)}\n`;
}

/** Writes the entries to `path` through a temporary file renamed at the end: never a half-built zip. */
async function writeZipAtomically(path: string, parts: Output[]): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.partial`;
  const output = await open(temporary, 'wx');
  try {
    await writeEntries(output, parts);
    await output.close();
    await rename(temporary, path);
  } catch (error) {
    await output.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

async function writeEntries(output: FileHandle, parts: Output[]): Promise<void> {
  const writer = new BufferedWriter(output);
  const centralHeaders: Buffer[] = [];
  const handles = new Map<string, FileHandle>();
  try {
    for (const part of parts) {
      const offset = writer.position;
      if (part.kind === 'new') {
        const entry = buildNewEntry(part.name, part.text);
        await writer.write(entry.local);
        centralHeaders.push(buildCentralHeader({ ...entry.central, localHeaderOffset: offset }));
        continue;
      }
      let handle = handles.get(part.from.path);
      if (handle === undefined) {
        handle = await open(part.from.path, 'r');
        handles.set(part.from.path, handle);
      }
      const { span, entry } = part.item;
      for await (const chunk of readRangeChunks(handle, span.start, span.end - span.start, COPY_CHUNK_BYTES)) {
        await writer.write(chunk);
      }
      centralHeaders.push(buildCentralHeader({ ...centralFieldsOf(entry), localHeaderOffset: offset }));
    }
    const centralDirectory = Buffer.concat(centralHeaders);
    const centralDirectoryOffset = writer.position;
    assertOutputFits(centralDirectoryOffset + centralDirectory.length, centralHeaders.length);
    await writer.write(centralDirectory);
    await writer.write(
      buildEndRecord({
        entryCount: centralHeaders.length,
        centralDirectorySize: centralDirectory.length,
        centralDirectoryOffset,
        comment: Buffer.alloc(0),
      }),
    );
    await writer.flush();
  } finally {
    for (const handle of handles.values()) await handle.close();
  }
}

const VERSION_MADE_BY_UNIX = (3 << 8) | 20;
const REGULAR_FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

function buildNewEntry(name: string, text: string) {
  const content = Buffer.from(text, 'utf8');
  const compressed = deflateRawSync(content);
  const { dosDate, dosTime } = toDosDateTime(new Date());
  const header = {
    versionNeeded: 20,
    flags: FLAG_UTF8,
    method: 8,
    dosTime,
    dosDate,
    crc32: crc32(content),
    compressedSize: compressed.length,
    uncompressedSize: content.length,
    fileName: Buffer.from(name, 'utf8'),
  };
  return {
    local: Buffer.concat([buildLocalHeader(header), compressed]),
    central: {
      ...header,
      versionMadeBy: VERSION_MADE_BY_UNIX,
      internalAttributes: 0,
      externalAttributes: REGULAR_FILE_ATTRIBUTES,
      extraField: Buffer.alloc(0),
      comment: Buffer.alloc(0),
    },
  };
}
