/**
 * Releases' migration maps (contracts/migration-map.ts) at work: a theme JSON document of an older version is
 * rewritten in the new version's names — global settings, colour schemes, section types and their settings, block
 * types and theirs — before the merge compares it, and each rename of a merchant's value is remembered so the report
 * can say where it moved from. Also the upload check: every new name must exist in the release's files.
 */
import {
  MIGRATION_MAP_MAX_RENAMES,
  describeMigrationMap,
  type MigrationBlockRule,
  type MigrationMap,
  type MigrationSectionRule,
} from '@keyport/shared/contracts/migration-map';
import { pathText, type JsonPath } from './json-changes';
import { blockSchemaIn, type SectionSchema, type ThemeSchema } from './theme-schema';
import { isPlainObject, type SettingDefinition } from './setting-types';

/** Where a renamed value came from, by its new path (`pathText`). */
export type MovedPaths = Map<string, { from: string; note: string; firstName?: string }>;

/** The path's own entry, or its nearest renamed ancestor's (a setting inside a renamed colour scheme). */
export function findMoved(moved: MovedPaths, path: JsonPath): { from: string; note: string } | undefined {
  for (let length = path.length; length > 0; length -= 1) {
    const found = moved.get(pathText(path.slice(0, length)));
    if (found) return { note: found.note, from: [found.from, ...path.slice(length)].join('.') };
  }
  return undefined;
}

/**
 * Renames, in place, the sections (and their blocks) of a container (`sections` of a template or section group, or
 * `current.sections` of settings_data) by each map in turn.
 */
export function migrateSections(
  container: unknown,
  path: JsonPath,
  maps: readonly MigrationMap[],
  moved?: MovedPaths,
): void {
  if (!isPlainObject(container)) return;
  for (const [key, section] of Object.entries(container)) {
    if (!isPlainObject(section) || typeof section.type !== 'string') continue;
    const sectionPath = [...path, key];
    for (const map of maps) {
      const type = section.type as string;
      const rule: MigrationSectionRule | undefined = own(map.sections, type);
      if (rule?.settings) renameMembers(section.settings, [...sectionPath, 'settings'], rule.settings, moved);
      migrateBlocks(section.blocks, [...sectionPath, 'blocks'], map, rule, moved);
      if (rule?.type !== undefined && rule.type !== type) {
        section.type = rule.type;
        note(moved, sectionPath, sectionPath, { what: 'section type', from: type, to: rule.type });
      }
    }
  }
}

function migrateBlocks(
  blocks: unknown,
  path: JsonPath,
  map: MigrationMap,
  section: MigrationSectionRule | undefined,
  moved?: MovedPaths,
): void {
  if (!isPlainObject(blocks)) return;
  for (const [key, block] of Object.entries(blocks)) {
    if (!isPlainObject(block) || typeof block.type !== 'string') continue;
    const blockPath = [...path, key];
    const type = block.type;
    const rule: MigrationBlockRule | undefined = own(section?.blocks, type) ?? own(map.blocks, type);
    if (rule?.settings) renameMembers(block.settings, [...blockPath, 'settings'], rule.settings, moved);
    // Theme blocks can hold blocks of their own.
    migrateBlocks(block.blocks, [...blockPath, 'blocks'], map, undefined, moved);
    if (rule?.type !== undefined && rule.type !== type) {
      block.type = rule.type;
      note(moved, blockPath, blockPath, { what: 'block type', from: type, to: rule.type });
    }
  }
}

/**
 * settings_data's `current` (a preset name already resolved): global setting ids, colour scheme ids and static
 * sections renamed by each map in turn, in place.
 */
export function migrateCurrent(current: Record<string, unknown>, maps: readonly MigrationMap[], moved?: MovedPaths) {
  for (const map of maps) {
    if (map.settings) renameMembers(current, ['current'], map.settings, moved);
    if (map.color_schemes) {
      renameMembers(current.color_schemes, ['current', 'color_schemes'], map.color_schemes, moved, 'colour scheme');
    }
  }
  migrateSections(current.sections, ['current', 'sections'], maps, moved);
}

/**
 * Settings of type `color_scheme` (by the new version's definitions) that name a renamed colour scheme get its new
 * id. Runs after the other renames, on a document already in the new version's names.
 */
export function renameColorSchemeValues(
  document: unknown,
  kind: 'settings_data' | 'template',
  schema: ThemeSchema,
  maps: readonly MigrationMap[],
  moved?: MovedPaths,
): void {
  const renames = maps.flatMap((map) => (map.color_schemes ? [map.color_schemes] : []));
  if (renames.length === 0 || !isPlainObject(document)) return;
  const rename = (settings: unknown, definitions: Map<string, SettingDefinition> | undefined, path: JsonPath) => {
    if (!isPlainObject(settings) || definitions === undefined) return;
    for (const [id, value] of Object.entries(settings)) {
      if (definitions.get(id)?.type !== 'color_scheme' || typeof value !== 'string') continue;
      const renamed = renames.reduce((current, table) => own(table, current) ?? current, value);
      if (renamed === value) continue;
      settings[id] = renamed;
      note(moved, [...path, id], [...path, id], { what: 'colour scheme', from: value, to: renamed });
    }
  };
  const walkSections = (sections: unknown, path: JsonPath) => {
    if (!isPlainObject(sections)) return;
    for (const [key, section] of Object.entries(sections)) {
      if (!isPlainObject(section) || typeof section.type !== 'string') continue;
      const sectionSchema = schema.sections.get(section.type);
      rename(section.settings, sectionSchema?.settings, [...path, key, 'settings']);
      walkBlocks(section.blocks, sectionSchema ?? null, [...path, key, 'blocks']);
    }
  };
  const walkBlocks = (blocks: unknown, parent: SectionSchema | null, path: JsonPath) => {
    if (!isPlainObject(blocks)) return;
    for (const [key, block] of Object.entries(blocks)) {
      if (!isPlainObject(block) || typeof block.type !== 'string') continue;
      const found = blockSchemaIn(schema, parent, block.type);
      if (typeof found === 'string') continue;
      rename(block.settings, found.settings, [...path, key, 'settings']);
      walkBlocks(block.blocks, found.nested, [...path, key, 'blocks']);
    }
  };
  if (kind === 'template') {
    walkSections(document.sections, ['sections']);
    return;
  }
  const current = document.current;
  if (!isPlainObject(current)) return;
  rename(current, schema.globalSettings, ['current']);
  walkSections(current.sections, ['current', 'sections']);
}

function renameMembers(
  target: unknown,
  path: JsonPath,
  renames: Record<string, string>,
  moved: MovedPaths | undefined,
  what = 'setting',
): void {
  if (!isPlainObject(target)) return;
  // Rebuilt so the renamed member keeps its place among the others.
  const entries = Object.entries(target);
  const renamed: [string, unknown][] = [];
  for (const [key, value] of entries) {
    const to = own(renames, key);
    if (to !== undefined && to !== key && !Object.hasOwn(target, to)) {
      renamed.push([to, value]);
      note(moved, [...path, to], [...path, key], { what, from: key, to });
    } else {
      renamed.push([key, value]);
    }
  }
  for (const key of Object.keys(target)) delete target[key];
  for (const [key, value] of renamed) target[key] = value;
}

function note(
  moved: MovedPaths | undefined,
  newPath: JsonPath,
  oldPath: JsonPath,
  names: { what: string; from: string; to: string },
): void {
  if (!moved) return;
  const key = pathText(newPath);
  // Chained renames (a → b in one release, b → c in the next) keep the first name.
  const earlier = moved.get(pathText(oldPath));
  if (earlier && key !== pathText(oldPath)) moved.delete(pathText(oldPath));
  const firstName = earlier?.firstName ?? names.from;
  moved.set(key, {
    from: earlier?.from ?? pathText(oldPath),
    firstName,
    note: `the new version calls the ${names.what} "${firstName}" "${names.to}"`,
  });
}

function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * The first problem of a migration map uploaded with a release, or null: every new name must exist in the release
 * (`schema`, read from its files), a name is not renamed to itself, and no two names become one.
 */
export function checkMigrationMap(map: MigrationMap, schema: ThemeSchema): string | null {
  const renames = describeMigrationMap(map).length;
  if (renames === 0) return 'The migration map renames nothing.';
  if (renames > MIGRATION_MAP_MAX_RENAMES) {
    return `The migration map has ${renames} renames (at most ${MIGRATION_MAP_MAX_RENAMES}).`;
  }
  return (
    checkRenames('settings', map.settings, (id) => schema.globalSettings.has(id), 'setting') ??
    checkRenames('color_schemes', map.color_schemes, (id) => schema.colorSchemes.has(id), 'colour scheme') ??
    checkSectionRules(map, schema) ??
    checkThemeBlockRules(map, schema)
  );
}

function checkRenames(
  where: string,
  renames: Record<string, string> | undefined,
  exists: (id: string) => boolean,
  what: string,
): string | null {
  const targets = new Map<string, string>();
  for (const [from, to] of Object.entries(renames ?? {})) {
    if (from === to) return `${where}: "${from}" is renamed to itself.`;
    if (!exists(to)) return `${where}: "${from}" → "${to}": the release has no ${what} "${to}".`;
    const other = targets.get(to);
    if (other !== undefined) return `${where}: "${other}" and "${from}" are both renamed to "${to}".`;
    targets.set(to, from);
  }
  return null;
}

function checkSectionRules(map: MigrationMap, schema: ThemeSchema): string | null {
  const types = new Map<string, string>();
  for (const [from, rule] of Object.entries(map.sections ?? {})) {
    const where = `sections.${from}`;
    const type = rule.type ?? from;
    if (rule.type === from) return `${where}: the section type is renamed to itself.`;
    const section = schema.sections.get(type);
    if (!section) return `${where}: the release has no section type "${type}" (sections/${type}.liquid).`;
    if (rule.type !== undefined) {
      const other = types.get(rule.type);
      if (other !== undefined) return `sections: "${other}" and "${from}" are both renamed to "${rule.type}".`;
      types.set(rule.type, from);
    }
    const settings = checkRenames(`${where}.settings`, rule.settings, (id) => section.settings.has(id), 'setting');
    if (settings) return settings;
    for (const [blockFrom, block] of Object.entries(rule.blocks ?? {})) {
      const blockType = block.type ?? blockFrom;
      if (block.type === blockFrom) return `${where}.blocks.${blockFrom}: the block type is renamed to itself.`;
      const found = blockSchemaIn(schema, section, blockType);
      if (typeof found === 'string') {
        return `${where}.blocks.${blockFrom}: the release's section "${type}" has no block type "${blockType}".`;
      }
      const problem = checkRenames(
        `${where}.blocks.${blockFrom}.settings`,
        block.settings,
        (id) => found.settings.has(id),
        'block setting',
      );
      if (problem) return problem;
    }
  }
  return null;
}

function checkThemeBlockRules(map: MigrationMap, schema: ThemeSchema): string | null {
  for (const [from, rule] of Object.entries(map.blocks ?? {})) {
    const type = rule.type ?? from;
    if (rule.type === from) return `blocks.${from}: the block type is renamed to itself.`;
    const block = schema.themeBlocks.get(type);
    if (!block) return `blocks.${from}: the release has no theme block "${type}" (blocks/${type}.liquid).`;
    const problem = checkRenames(`blocks.${from}.settings`, rule.settings, (id) => block.settings.has(id), 'setting');
    if (problem) return problem;
  }
  return null;
}
