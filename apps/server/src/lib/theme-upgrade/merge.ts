/**
 * The pure part of an upgrade: merchant JSON (settings_data, templates, section groups, locales) merged onto the
 * target release's schemas. Every value either goes into the result or into the report.
 */
import { checkSettingValue, isPlainObject, settingsById, type SettingDefinition } from './setting-types';
import type { ThemeUpgradeReport } from './report';

export const LICENSE_SETTING_ID = 'license_token';

/** What the target theme offers: global settings, section types with their settings and block types. */
export interface TargetSchema {
  globalSettings: Map<string, SettingDefinition>;
  sections: Map<string, SectionSchema>;
  /** Theme blocks (blocks/<type>.liquid). */
  themeBlocks: Map<string, SectionSchema>;
}

export interface SectionSchema {
  settings: Map<string, SettingDefinition>;
  blocks: Map<string, Map<string, SettingDefinition>>;
  acceptsAppBlocks: boolean;
  acceptsThemeBlocks: boolean;
}

type Report = Pick<ThemeUpgradeReport, 'settings' | 'sections' | 'locales'>;

export function emptyMergeReport(): Report {
  return {
    settings: { kept: [], changed: [], dropped: [] },
    sections: { kept: [], dropped: [] },
    locales: { kept: [], dropped: [], vendorTextUpdated: 0 },
  };
}

/** Reads the `{% schema %}` JSON of a section or block liquid file; null when it has none or it does not parse. */
export function parseLiquidSchema(liquid: string): SectionSchema | null {
  const match = /\{%-?\s*schema\s*-?%\}([\s\S]*?)\{%-?\s*endschema\s*-?%\}/.exec(liquid);
  if (!match?.[1])
    return { settings: new Map(), blocks: new Map(), acceptsAppBlocks: false, acceptsThemeBlocks: false };
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

/** Filters a settings object against definitions: fitting values kept, others dropped into the report. */
function mergeSettingValues(
  values: unknown,
  definitions: Map<string, SettingDefinition> | null,
  where: { file: string; scope: string },
  report: Report,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (!isPlainObject(values)) return kept;
  for (const [id, value] of Object.entries(values)) {
    const definition = definitions?.get(id);
    const reason =
      id === '__proto__'
        ? 'not a valid setting id'
        : definitions === null
          ? null
          : definition === undefined
            ? 'the new theme has no such setting'
            : checkSettingValue(definition, value);
    if (reason === null) {
      kept[id] = value;
      report.settings.kept.push({ ...where, id, value });
    } else {
      report.settings.dropped.push({ ...where, id, oldValue: value, reason });
    }
  }
  return kept;
}

/** A section or block container (`sections` + `order`, or `blocks` + `block_order`) filtered by the target. */
function mergeContainer(
  items: unknown,
  order: unknown,
  file: string,
  scope: string,
  kind: 'section' | 'block',
  typeInfo: (type: string) => { schema: SectionSchema | null; blockSettings?: Map<string, SettingDefinition> } | string,
  target: TargetSchema,
  report: Report,
): { items: Record<string, unknown>; order: string[] | undefined } {
  const kept: Record<string, unknown> = {};
  if (isPlainObject(items)) {
    for (const [key, item] of Object.entries(items)) {
      const itemScope = `${scope}.${key}`;
      const type = isPlainObject(item) && typeof item.type === 'string' ? item.type : '';
      const info = key === '__proto__' ? 'not a valid key' : typeInfo(type);
      if (typeof info === 'string') {
        report.sections.dropped.push({ file, scope: itemScope, type, reason: info, oldValue: item });
        continue;
      }
      report.sections.kept.push({ file, scope: itemScope, type });
      kept[key] = mergeItem(item as Record<string, unknown>, file, itemScope, kind, info, target, report);
    }
  }
  const keptOrder = Array.isArray(order) ? order.filter((key) => typeof key === 'string' && key in kept) : undefined;
  return { items: kept, order: keptOrder as string[] | undefined };
}

function mergeItem(
  item: Record<string, unknown>,
  file: string,
  scope: string,
  kind: 'section' | 'block',
  info: { schema: SectionSchema | null; blockSettings?: Map<string, SettingDefinition> },
  target: TargetSchema,
  report: Report,
): Record<string, unknown> {
  const isApp = String(item.type).startsWith('shopify://apps/');
  const definitions = isApp
    ? null
    : kind === 'block' && info.blockSettings
      ? info.blockSettings
      : (info.schema?.settings ?? null);
  const out: Record<string, unknown> = { ...item };
  if ('settings' in item) out.settings = mergeSettingValues(item.settings, definitions, { file, scope }, report);
  if ('blocks' in item) {
    const parent = info.schema;
    const merged = mergeContainer(
      item.blocks,
      item.block_order,
      file,
      `${scope}.blocks`,
      'block',
      (type) => blockTypeInfo(type, parent, target, isApp),
      target,
      report,
    );
    out.blocks = merged.items;
    if (merged.order !== undefined) out.block_order = merged.order;
  }
  return out;
}

function blockTypeInfo(
  type: string,
  parent: SectionSchema | null,
  target: TargetSchema,
  parentIsApp: boolean,
): { schema: SectionSchema | null; blockSettings?: Map<string, SettingDefinition> } | string {
  if (parentIsApp) return { schema: null };
  if (type.startsWith('shopify://apps/')) {
    return parent?.acceptsAppBlocks ? { schema: null } : 'the new section does not accept app blocks';
  }
  const local = parent?.blocks.get(type);
  if (local) return { schema: null, blockSettings: local };
  const themeBlock = target.themeBlocks.get(type);
  if (themeBlock && (parent === null || parent.acceptsThemeBlocks || parent.blocks.size === 0)) {
    return { schema: themeBlock, blockSettings: themeBlock.settings };
  }
  return `the new theme has no block type "${type}" here`;
}

function sectionTypeInfo(type: string, target: TargetSchema): { schema: SectionSchema | null } | string {
  if (type.startsWith('shopify://apps/')) return { schema: null };
  const schema = target.sections.get(type);
  return schema ? { schema } : `the new theme has no section type "${type}"`;
}

/** templates/*.json or a section group (sections/*.json): sections and blocks of types the target has. */
export function mergeTemplate(merchant: unknown, file: string, target: TargetSchema, report: Report): unknown {
  if (!isPlainObject(merchant)) return merchant;
  const merged = mergeContainer(
    merchant.sections,
    merchant.order,
    file,
    'sections',
    'section',
    (type) => sectionTypeInfo(type, target),
    target,
    report,
  );
  const out: Record<string, unknown> = { ...merchant, sections: merged.items };
  if (merged.order !== undefined) out.order = merged.order;
  return out;
}

/**
 * config/settings_data.json: the target's document (its presets) with `current` made of the merchant's values that
 * the target's settings_schema.json accepts. A `current` naming a preset is resolved to that preset first.
 */
export function mergeSettingsData(
  merchant: unknown,
  targetDocument: unknown,
  sourceGlobal: Map<string, SettingDefinition>,
  target: TargetSchema,
  report: Report,
): Record<string, unknown> {
  const file = 'config/settings_data.json';
  const base = isPlainObject(targetDocument) ? { ...targetDocument } : {};
  let current: unknown = isPlainObject(merchant) ? merchant.current : undefined;
  if (typeof current === 'string' && isPlainObject(merchant) && isPlainObject(merchant.presets)) {
    current = merchant.presets[current];
  }
  const out: Record<string, unknown> = {};
  if (isPlainObject(current)) {
    for (const [id, value] of Object.entries(current)) {
      if (id === 'sections') {
        const merged = mergeTemplate({ sections: value }, file, target, report);
        out.sections = isPlainObject(merged) ? merged.sections : {};
        continue;
      }
      if (id === 'content_for_index') {
        out.content_for_index = Array.isArray(value) ? value : [];
        continue;
      }
      if (id === 'blocks') {
        // App embeds: their settings belong to the apps, not the theme.
        out.blocks = value;
        report.settings.kept.push({ file, scope: 'current', id, value });
        continue;
      }
      if (id === LICENSE_SETTING_ID) {
        report.settings.changed.push({
          file,
          scope: 'current',
          id,
          value: '[the target key’s token]',
          note: 'replaced by the target key’s license token',
        });
        continue;
      }
      const definition = target.globalSettings.get(id);
      const reason =
        definition === undefined ? 'the new theme has no such setting' : checkSettingValue(definition, value);
      if (reason !== null) {
        report.settings.dropped.push({ file, scope: 'current', id, oldValue: value, reason });
        continue;
      }
      out[id] = value;
      const before = sourceGlobal.get(id);
      if (before && definition && before.type !== definition.type) {
        report.settings.changed.push({
          file,
          scope: 'current',
          id,
          value,
          note: `the setting is now ${definition.type} (was ${before.type}); the value still fits`,
        });
      } else {
        report.settings.kept.push({ file, scope: 'current', id, value });
      }
    }
    if (Array.isArray(out.content_for_index) && isPlainObject(out.sections)) {
      const sections = out.sections;
      out.content_for_index = out.content_for_index.filter((key) => typeof key === 'string' && key in sections);
    }
  }
  base.current = out;
  return base;
}

/**
 * locales/*.json key by key: the target's file with the merchant's overrides (leaves that differ from the original
 * release, or from the target when the original is unknown) written in where the target has the same key and kind.
 */
export function mergeLocale(
  merchant: unknown,
  original: unknown,
  targetLocale: unknown,
  file: string,
  report: Report,
): unknown {
  const out = structuredClone(targetLocale);
  const walk = (value: unknown, path: string[]) => {
    if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
      return;
    }
    const key = path.join('.');
    const reference = original === undefined ? getPath(targetLocale, path) : getPath(original, path);
    if (deepEqual(value, reference)) {
      if (original !== undefined && !deepEqual(value, getPath(targetLocale, path)))
        report.locales.vendorTextUpdated += 1;
      return;
    }
    const targetValue = getPath(targetLocale, path);
    if (targetValue === undefined) {
      report.locales.dropped.push({ file, key, value, reason: 'the new theme has no such text' });
    } else if (typeof targetValue !== typeof value || isPlainObject(targetValue)) {
      report.locales.dropped.push({ file, key, value, reason: 'the new theme uses this key differently' });
    } else {
      setPath(out, path, value);
      report.locales.kept.push({ file, key, value });
    }
  };
  walk(merchant, []);
  return out;
}

export function getPath(value: unknown, path: string[]): unknown {
  let node = value;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

function setPath(root: unknown, path: string[], value: unknown): void {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(node)) return;
    node = node[key];
  }
  const last = path.at(-1);
  if (isPlainObject(node) && last !== undefined) node[last] = value;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
