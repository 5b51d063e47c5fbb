/**
 * What the new version offers, read from its files: global settings (config/settings_schema.json), section types
 * (sections/<type>.liquid `{% schema %}`: settings, block types, app and theme blocks), theme blocks
 * (blocks/<type>.liquid) and colour schemes (config/settings_data.json). A merchant's value goes into the new theme
 * only where this says it fits.
 */
import { getPath } from './json-changes';
import { parseThemeJson } from './json-text';
import { isPlainObject, settingsById, type SettingDefinition } from './setting-types';

export interface SectionSchema {
  settings: Map<string, SettingDefinition>;
  blocks: Map<string, Map<string, SettingDefinition>>;
  acceptsAppBlocks: boolean;
  acceptsThemeBlocks: boolean;
}

export interface ThemeSchema {
  globalSettings: Map<string, SettingDefinition>;
  sections: Map<string, SectionSchema>;
  /** Theme blocks (blocks/<type>.liquid). */
  themeBlocks: Map<string, SectionSchema>;
  /** Colour scheme ids of the theme's settings_data.json (its current settings and presets). */
  colorSchemes: Set<string>;
}

/** The setting the license token is written to (as downloads do, ADR 011). */
export const LICENSE_SETTING_ID = 'license_token';
export const SETTINGS_SCHEMA_FILE = 'config/settings_schema.json';
export const SETTINGS_DATA_FILE = 'config/settings_data.json';
export const SECTION_FILE = /^sections\/([^/]+)\.liquid$/;
export const BLOCK_FILE = /^blocks\/([^/]+)\.liquid$/;

/** The files a theme's schema is read from. */
export const isSchemaSource = (name: string) =>
  SECTION_FILE.test(name) || BLOCK_FILE.test(name) || name === SETTINGS_SCHEMA_FILE || name === SETTINGS_DATA_FILE;

/** Builds the schema from a theme's texts (section and block liquid, settings schema and data), by file name. */
export function buildThemeSchema(texts: ReadonlyMap<string, string>): ThemeSchema {
  const sections = new Map<string, SectionSchema>();
  const themeBlocks = new Map<string, SectionSchema>();
  for (const [name, text] of texts) {
    const section = SECTION_FILE.exec(name)?.[1];
    const block = BLOCK_FILE.exec(name)?.[1];
    if (section === undefined && block === undefined) continue;
    const schema = parseLiquidSchema(text);
    if (schema === null) continue;
    if (section !== undefined) sections.set(section, schema);
    if (block !== undefined) themeBlocks.set(block, schema);
  }
  const schemaText = texts.get(SETTINGS_SCHEMA_FILE);
  const dataText = texts.get(SETTINGS_DATA_FILE);
  return {
    globalSettings: globalSettingsOf(schemaText === undefined ? [] : parseThemeJson(schemaText, SETTINGS_SCHEMA_FILE)),
    sections,
    themeBlocks,
    colorSchemes: colorSchemesOf(dataText === undefined ? {} : parseThemeJson(dataText, SETTINGS_DATA_FILE)),
  };
}

/** Reads the `{% schema %}` JSON of a section or block liquid file; null when it does not parse. */
export function parseLiquidSchema(liquid: string): SectionSchema | null {
  const match = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(liquid);
  if (!match?.[1]) {
    return { settings: new Map(), blocks: new Map(), acceptsAppBlocks: false, acceptsThemeBlocks: false };
  }
  let schema: unknown;
  try {
    schema = JSON.parse(match[1]);
  } catch {
    return null;
  }
  if (!isPlainObject(schema)) return null;
  const blocks = new Map<string, Map<string, SettingDefinition>>();
  let acceptsAppBlocks = false;
  let acceptsThemeBlocks = false;
  if (Array.isArray(schema.blocks)) {
    for (const block of schema.blocks) {
      if (!isPlainObject(block) || typeof block.type !== 'string') continue;
      if (block.type === '@app') acceptsAppBlocks = true;
      else if (block.type === '@theme') acceptsThemeBlocks = true;
      else blocks.set(block.type, settingsById(block.settings));
    }
  }
  return { settings: settingsById(schema.settings), blocks, acceptsAppBlocks, acceptsThemeBlocks };
}

/** Global settings from settings_schema.json (every group's settings). */
export function globalSettingsOf(schema: unknown): Map<string, SettingDefinition> {
  const all = new Map<string, SettingDefinition>();
  if (!Array.isArray(schema)) return all;
  for (const group of schema) {
    if (!isPlainObject(group)) continue;
    for (const [id, setting] of settingsById(group.settings)) all.set(id, setting);
  }
  return all;
}

/** The `current` settings of a settings_data.json document, a preset name resolved to that preset. */
export function resolvedCurrent(document: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(document)) return undefined;
  const current = document.current;
  if (typeof current === 'string') {
    const preset = getPath(document, ['presets', current]);
    return isPlainObject(preset) ? preset : undefined;
  }
  return isPlainObject(current) ? current : undefined;
}

function colorSchemesOf(document: unknown): Set<string> {
  const ids = new Set<string>();
  const add = (settings: unknown) => {
    const schemes = getPath(settings, ['color_schemes']);
    if (isPlainObject(schemes)) for (const id of Object.keys(schemes)) ids.add(id);
  };
  add(resolvedCurrent(document));
  const presets = getPath(document, ['presets']);
  if (isPlainObject(presets)) for (const preset of Object.values(presets)) add(preset);
  return ids;
}

/** A block type's settings where a block sits: its section's own block types, else a theme block it accepts. */
export function blockSchemaIn(
  schema: ThemeSchema,
  parent: SectionSchema | null,
  type: string,
): { settings: Map<string, SettingDefinition>; nested: SectionSchema | null } | string {
  if (type.startsWith('shopify://apps/')) {
    return parent === null || parent.acceptsAppBlocks
      ? { settings: new Map(), nested: null }
      : 'the new version of this section does not accept app blocks';
  }
  const local = parent?.blocks.get(type);
  if (local) return { settings: local, nested: null };
  const themeBlock = schema.themeBlocks.get(type);
  if (themeBlock && (parent === null || parent.acceptsThemeBlocks || parent.blocks.size === 0)) {
    return { settings: themeBlock.settings, nested: themeBlock };
  }
  return `the new version has no block type "${type}" here`;
}
