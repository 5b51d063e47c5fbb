/**
 * The three-way merge of one theme JSON file — base: the release the store started from; ours: the merchant's export;
 * theirs: the new version. Only what the merchant changed (base → export, after the releases' migration maps renamed
 * the base and the export into the new version's names) is written into the new version's text, in place; everything
 * else stays the new version's, byte for byte. Each change lands in the report: kept, moved (renamed), review (the new
 * version changed the same value: the merchant's is kept, theirs reported) or dropped (the new version has no place
 * for it), with the reason.
 *
 * templates/*.json and section groups (sections/*.json): sections and blocks are entities — added, removed or
 * changed setting by setting; a value is written only where the new version's section/block schema has the setting
 * and the value fits it. settings_data.json: `current` only (a preset name resolved), global settings against
 * settings_schema.json, colour schemes, static sections, app embeds; never the old license token (written afterwards).
 * Locales: see locale-merge.ts.
 */
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import type { ReportItem } from '@keyport/shared/contracts/theme-file-updates';
import { diffJson, getPath, jsonEqual, pathText, setPath, type JsonChange, type JsonPath } from './json-changes';
import { JsonTextEditor, parseThemeJson } from './json-text';
import { findMoved, migrateCurrent, migrateSections, renameColorSchemeValues, type MovedPaths } from './migration-map';
import type { ReportSink } from './report';
import { checkSettingValue, isPlainObject, settingsById, type SettingDefinition } from './setting-types';
import {
  LICENSE_SETTING_ID,
  blockSchemaIn,
  resolvedCurrent,
  type SectionSchema,
  type ThemeSchema,
} from './theme-schema';

export type StructuredJsonKind = 'settings_data' | 'template';

export interface JsonMergeInput {
  file: string;
  kind: StructuredJsonKind;
  /** The release's text; null for a two-way merge (no release known): then the new version's counts as the base,
   *  so every value that differs from it is the merchant's and no conflict can be told. */
  base: string | null;
  merchant: string;
  target: string;
  schema: ThemeSchema;
  maps: readonly MigrationMap[];
  report: ReportSink;
}

type EntityKind = 'section' | 'block' | 'embed' | 'scheme';

/** Where a change sits: at an entity, in an entity's settings, an order, or another member. */
type Spot =
  | { at: 'entity'; entity: Entity }
  | { at: 'setting'; owner: Entity | null; id: string }
  | { at: 'order'; owner: Entity | null }
  | { at: 'property'; owner: Entity | null };

interface Entity {
  kind: EntityKind;
  path: JsonPath;
  /** The entity holding this one (a block's section), or null. */
  parent: Entity | null;
}

/** Settings a value is checked against, or a reason it has no place. Null: any value (an app's own settings). */
type Definitions = Map<string, SettingDefinition> | null;

export function mergeStructuredJson(input: JsonMergeInput): string {
  return new StructuredMerge(input).run();
}

/**
 * A template or section group the merchant added, checked against the new version as if every section were just
 * added: null when all of it has a place (the file is copied as it is), else the text without what has none (a
 * section type, block type or setting the new version lacks — Shopify refuses a theme whose template names a missing
 * section) and the dropped items.
 */
export function cleanAddedTemplate(input: {
  file: string;
  text: string;
  schema: ThemeSchema;
  maps: readonly MigrationMap[];
}): { text: string; dropped: ReportItem[] } | null {
  const items: ReportItem[] = [];
  const text = mergeStructuredJson({
    file: input.file,
    kind: 'template',
    base: '{}',
    merchant: input.text,
    target: '{}\n',
    schema: input.schema,
    maps: input.maps,
    report: { add: (item) => items.push(item) },
  });
  const dropped = items.filter((item) => item.group === 'dropped');
  return dropped.length === 0 ? null : { text, dropped };
}

class StructuredMerge {
  private readonly editor: JsonTextEditor;
  /** The new version's document as edited so far (settings_data: `{ current }`, the preset resolved). */
  private readonly view: Record<string, unknown>;
  private readonly merchant: Record<string, unknown>;
  private readonly base: Record<string, unknown>;
  private readonly moved: MovedPaths = new Map();
  /** Entities written whole, or dropped whole: changes inside them are done. */
  private readonly handled = new Set<string>();
  /** Containers whose order must be checked at the end (entities added, removed or reordered). */
  private readonly orders = new Map<string, { container: JsonPath; order: JsonPath }>();
  /** The new version's document before any edit (where its orders had each key). */
  private readonly original: Record<string, unknown>;
  private currentIsPreset = false;

  constructor(private readonly input: JsonMergeInput) {
    const { file, kind, schema, maps } = input;
    const target = parseThemeJson(input.target, file);
    this.editor = new JsonTextEditor(input.target);
    const merchant = parseThemeJson(input.merchant, file);
    if (kind === 'settings_data') {
      this.currentIsPreset = isPlainObject(target) && typeof target.current === 'string';
      this.view = { current: structuredClone(resolvedCurrent(target) ?? {}) };
      this.merchant = { current: structuredClone(resolvedCurrent(merchant) ?? {}) };
      this.base =
        input.base === null
          ? structuredClone(this.view)
          : { current: structuredClone(resolvedCurrent(parseThemeJson(input.base, file)) ?? {}) };
      for (const side of [this.merchant, this.base])
        delete (side.current as Record<string, unknown>)[LICENSE_SETTING_ID];
      migrateCurrent(this.merchant.current as Record<string, unknown>, maps, this.moved);
      if (input.base !== null) migrateCurrent(this.base.current as Record<string, unknown>, maps);
    } else {
      this.view = isPlainObject(target) ? structuredClone(target) : {};
      this.merchant = isPlainObject(merchant) ? structuredClone(merchant) : {};
      this.base = input.base === null ? structuredClone(this.view) : asObject(parseThemeJson(input.base, file));
      migrateSections(this.merchant.sections, ['sections'], maps, this.moved);
      if (input.base !== null) migrateSections(this.base.sections, ['sections'], maps);
    }
    renameColorSchemeValues(this.merchant, kind, schema, maps, this.moved);
    if (input.base !== null) renameColorSchemeValues(this.base, kind, schema, maps);
    this.original = structuredClone(this.view);
  }

  run(): string {
    const changes = diffJson(this.base, this.merchant, {
      atomic: (path, a, b) => this.isAtomic(path, a, b),
      // A container the base did not have (the first app embed, a section's first blocks): entity by entity.
      expandAdded: (path) => CONTAINERS.has(path.at(-1) ?? ''),
    });
    for (const change of changes) {
      // Two ways (no base), a value missing from the export says nothing: only what it has counts.
      if (this.input.base === null && change.kind === 'remove') continue;
      this.apply(change);
    }
    this.fixOrders();
    return this.editor.toString();
  }

  /** A section or block whose type changed is replaced whole; a setting's value is one value. */
  private isAtomic(path: JsonPath, base: Record<string, unknown>, merchant: Record<string, unknown>): boolean {
    if (typeof base.type === 'string' && typeof merchant.type === 'string' && base.type !== merchant.type) return true;
    const spot = this.locate(path);
    return spot.at === 'setting';
  }

  // ---- Where a path is ----

  private locate(path: JsonPath): Spot {
    let index = 0;
    let owner: Entity | null = null;
    if (this.input.kind === 'settings_data') {
      // current.<id> (global setting), current.color_schemes.<id>, current.blocks.<id> (app embeds),
      // current.sections.<key> (static sections), current.content_for_index and the like (members).
      const member = path[1];
      if (member === undefined) return { at: 'property', owner: null };
      if (member === 'color_schemes' || member === 'blocks') {
        const key = path[2];
        if (key === undefined) return { at: 'property', owner: null };
        owner = { kind: member === 'blocks' ? 'embed' : 'scheme', path: path.slice(0, 3), parent: null };
        if (path.length === 3) return { at: 'entity', entity: owner };
        if (member === 'color_schemes' && path[3] === 'settings' && path[4] !== undefined && path.length === 5) {
          return { at: 'setting', owner, id: path[4] };
        }
        return { at: 'property', owner };
      }
      if (member !== 'sections') {
        return path.length === 2 && member !== 'content_for_index'
          ? { at: 'setting', owner: null, id: member }
          : { at: 'property', owner: null };
      }
      index = 1;
    } else if (path[0] === 'order' && path.length === 1) {
      return { at: 'order', owner: null };
    } else if (path[0] !== 'sections') {
      return { at: 'property', owner: null };
    }
    // path[index] === 'sections'
    let kind: EntityKind = 'section';
    for (;;) {
      const key = path[index + 1];
      if (key === undefined) return { at: 'property', owner };
      owner = { kind, path: path.slice(0, index + 2), parent: owner };
      const next = path[index + 2];
      if (next === undefined) return { at: 'entity', entity: owner };
      if (next === 'settings' && path.length === index + 4) return { at: 'setting', owner, id: path[index + 3]! };
      if (next === 'block_order' && path.length === index + 3) return { at: 'order', owner };
      if (next !== 'blocks') return { at: 'property', owner };
      index += 2;
      kind = 'block';
    }
  }

  // ---- Applying one change ----

  private apply(change: JsonChange): void {
    const spot = this.locate(change.path);
    const owner = spot.at === 'entity' ? spot.entity.parent : spot.owner;
    if (this.insideHandled(change.path)) return;
    if (owner !== null && !this.ensureOwner(owner)) return;
    if (spot.at === 'entity') this.applyEntity(spot.entity, change);
    else if (spot.at === 'setting') this.applySetting(spot.owner, spot.id, change);
    else if (spot.at === 'order') this.applyOrder(spot.owner, change);
    else this.applyProperty(change);
  }

  private insideHandled(path: JsonPath): boolean {
    for (let length = path.length; length > 0; length -= 1) {
      if (this.handled.has(pathText(path.slice(0, length)))) return true;
    }
    return false;
  }

  /**
   * The entity a change is in must exist in the new version. When the new version no longer has it (it removed the
   * section from its template, or the block), the merchant's whole entity is brought back (checked like an added
   * one) and reported for review; changes inside it are then done.
   */
  private ensureOwner(owner: Entity): boolean {
    const chain: Entity[] = [];
    for (let entity: Entity | null = owner; entity !== null; entity = entity.parent) chain.unshift(entity);
    const missing = chain.find((entity) => getPath(this.view, entity.path) === undefined);
    if (missing === undefined) return true;
    const yours = getPath(this.merchant, missing.path);
    this.handled.add(pathText(missing.path));
    if (yours === undefined) {
      // The merchant removed the entity that held the change (can only be a removal inside it): nothing to do.
      return false;
    }
    if (this.writeEntity(missing, yours)) {
      this.item({
        group: 'review',
        kind: reportKind(missing.kind),
        path: missing.path,
        reason: `the new version no longer has this ${describe(missing.kind, yours)} here; yours is kept with your changes`,
        yours,
      });
    }
    return false;
  }

  private applyEntity(entity: Entity, change: JsonChange): void {
    const key = pathText(entity.path);
    const theirs = getPath(this.view, entity.path);
    if (change.kind === 'remove') {
      if (theirs === undefined) {
        this.item({ group: 'kept', kind: reportKind(entity.kind), path: entity.path, reason: removedReason(entity) });
        return;
      }
      const conflict = !jsonEqual(theirs, change.base);
      this.remove(entity.path);
      this.touchOrder(entity);
      this.item({
        group: conflict ? 'review' : 'kept',
        kind: reportKind(entity.kind),
        path: entity.path,
        reason: conflict
          ? `you removed this ${describe(entity.kind, theirs)}; the new version changed it — it stays removed`
          : removedReason(entity),
        theirs: conflict ? theirs : undefined,
      });
      return;
    }
    this.handled.add(key);
    if (jsonEqual(theirs, change.value)) {
      this.item({
        group: 'kept',
        kind: reportKind(entity.kind),
        path: entity.path,
        reason: 'the new version has the same',
        yours: change.value,
      });
      return;
    }
    if (!this.writeEntity(entity, change.value)) return;
    const conflict = theirs !== undefined && !jsonEqual(theirs, change.base);
    const moved = findMoved(this.moved, entity.path);
    this.item({
      group: conflict ? 'review' : moved ? 'moved' : 'kept',
      kind: reportKind(entity.kind),
      path: entity.path,
      from: moved && !conflict ? { path: moved.from } : undefined,
      reason: conflict
        ? `the new version changed this ${describe(entity.kind, change.value)} too; yours replaces it`
        : (moved?.note ??
          (change.base === undefined
            ? `added by you (${describe(entity.kind, change.value)})`
            : `changed by you (${describe(entity.kind, change.value)})`)),
      yours: change.value,
      theirs: conflict ? theirs : undefined,
    });
  }

  /**
   * Writes a whole section or block (added by the merchant, or brought back), its settings and blocks checked against
   * the new version: what has no place is left out and reported dropped. False when the entity itself has no place.
   */
  private writeEntity(entity: Entity, value: unknown): boolean {
    const place = this.placeOf(entity, value);
    if (typeof place === 'string') {
      this.handled.add(pathText(entity.path));
      this.item({ group: 'dropped', kind: reportKind(entity.kind), path: entity.path, reason: place, yours: value });
      return false;
    }
    this.set(entity.path, this.clean(entity, value, place));
    this.touchOrder(entity);
    return true;
  }

  /** The settings an entity's values are checked against, or why it has no place in the new version. */
  private placeOf(entity: Entity, value: unknown): { settings: Definitions; nested: SectionSchema | null } | string {
    const { schema } = this.input;
    if (entity.kind === 'embed') return { settings: null, nested: null };
    if (entity.kind === 'scheme') {
      const group = schema.globalSettings.get('color_schemes');
      return group === undefined
        ? 'the new version has no colour schemes'
        : { settings: settingsById(group.definition), nested: null };
    }
    const type = isPlainObject(value) && typeof value.type === 'string' ? value.type : '';
    if (entity.kind === 'section') {
      if (type.startsWith('shopify://apps/')) return { settings: null, nested: APP_OWNED };
      const section = schema.sections.get(type);
      return section
        ? { settings: section.settings, nested: section }
        : `the new version has no section type "${type}"`;
    }
    const parent = entity.parent ? this.schemaOfEntity(entity.parent) : null;
    if (typeof parent === 'string') return parent;
    if (parent?.settings === null && parent.nested === APP_OWNED) return { settings: null, nested: APP_OWNED };
    const found = blockSchemaIn(schema, parent?.nested ?? null, type);
    if (typeof found === 'string') return found;
    if (type.startsWith('shopify://apps/')) return { settings: null, nested: APP_OWNED };
    return { settings: found.settings, nested: found.nested };
  }

  /** The place of an entity as it is now in the edited document. */
  private schemaOfEntity(entity: Entity): { settings: Definitions; nested: SectionSchema | null } | string {
    return this.placeOf(entity, getPath(this.view, entity.path) ?? getPath(this.merchant, entity.path));
  }

  /** A copy of the entity with the settings and blocks the new version has no place for left out (and reported). */
  private clean(
    entity: Entity,
    value: unknown,
    place: { settings: Definitions; nested: SectionSchema | null },
  ): unknown {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = { ...value };
    if (isPlainObject(value.settings) && place.settings !== null) {
      const settings: Record<string, unknown> = {};
      for (const [id, setting] of Object.entries(value.settings)) {
        const reason = this.settingProblem(place.settings, id, setting);
        if (reason === null) settings[id] = setting;
        else {
          this.item({
            group: 'dropped',
            kind: 'setting',
            path: [...entity.path, 'settings', id],
            reason,
            yours: setting,
          });
        }
      }
      out.settings = settings;
    }
    if (isPlainObject(value.blocks)) {
      const blocks: Record<string, unknown> = {};
      for (const [key, block] of Object.entries(value.blocks)) {
        const child: Entity = { kind: 'block', path: [...entity.path, 'blocks', key], parent: entity };
        const childPlace = this.blockPlace(place, block);
        if (typeof childPlace === 'string') {
          this.item({ group: 'dropped', kind: 'block', path: child.path, reason: childPlace, yours: block });
          continue;
        }
        blocks[key] = this.clean(child, block, childPlace);
      }
      out.blocks = blocks;
      if (Array.isArray(value.block_order)) {
        out.block_order = value.block_order.filter((key) => typeof key === 'string' && Object.hasOwn(blocks, key));
      }
    }
    return out;
  }

  private blockPlace(
    parent: { settings: Definitions; nested: SectionSchema | null },
    block: unknown,
  ): { settings: Definitions; nested: SectionSchema | null } | string {
    if (parent.nested === APP_OWNED) return { settings: null, nested: APP_OWNED };
    const type = isPlainObject(block) && typeof block.type === 'string' ? block.type : '';
    const found = blockSchemaIn(this.input.schema, parent.nested, type);
    if (typeof found === 'string') return found;
    if (type.startsWith('shopify://apps/')) return { settings: null, nested: APP_OWNED };
    return { settings: found.settings, nested: found.nested };
  }

  private settingProblem(definitions: Map<string, SettingDefinition>, id: string, value: unknown): string | null {
    const definition = definitions.get(id);
    if (definition === undefined) return `the new version has no setting "${id}" here`;
    return checkSettingValue(definition, value, { colorSchemes: this.input.schema.colorSchemes });
  }

  private applySetting(owner: Entity | null, id: string, change: JsonChange): void {
    const path = change.path;
    let definitions: Definitions;
    if (owner === null) {
      definitions = this.input.schema.globalSettings;
    } else {
      const place = this.schemaOfEntity(owner);
      definitions = typeof place === 'string' ? new Map() : place.settings;
    }
    const theirs = getPath(this.view, path);
    const moved = findMoved(this.moved, path);
    if (change.kind === 'remove') {
      // Back to the setting's default: the member goes (the new version's own value, if it changed it, too).
      if (theirs === undefined) return;
      const conflict = !jsonEqual(theirs, change.base);
      this.remove(path);
      this.item({
        group: conflict ? 'review' : 'kept',
        kind: 'setting',
        path,
        reason: conflict
          ? 'you reset this setting to its default; the new version had changed its value'
          : 'reset to its default by you',
        theirs: conflict ? theirs : undefined,
      });
      return;
    }
    const problem = definitions === null ? null : this.settingProblem(definitions, id, change.value);
    if (problem !== null) {
      this.item({
        group: 'dropped',
        kind: 'setting',
        path,
        from: moved ? { path: moved.from } : undefined,
        reason: problem,
        yours: change.value,
        theirs,
      });
      return;
    }
    if (jsonEqual(theirs, change.value)) {
      this.item({
        group: 'kept',
        kind: 'setting',
        path,
        reason: 'the new version has the same value',
        yours: change.value,
      });
      return;
    }
    const conflict = theirs !== undefined && change.base !== undefined && !jsonEqual(theirs, change.base);
    this.set(path, change.value);
    this.item({
      group: conflict ? 'review' : moved ? 'moved' : 'kept',
      kind: 'setting',
      path,
      from: moved && !conflict ? { path: moved.from } : undefined,
      reason: conflict ? 'the new version changed this value too; yours is kept' : (moved?.note ?? 'your value'),
      yours: change.value,
      theirs: conflict ? theirs : undefined,
    });
  }

  private applyOrder(owner: Entity | null, change: JsonChange): void {
    const path = change.path;
    if (change.kind === 'set' && Array.isArray(change.value)) {
      const theirs = getPath(this.view, path);
      if (!jsonEqual(theirs, change.value)) this.set(path, change.value);
      this.registerOrder(owner === null ? ['sections'] : [...owner.path, 'blocks'], path);
      this.item({ group: 'kept', kind: 'order', path, reason: 'your order', yours: change.value });
    }
  }

  private applyProperty(change: JsonChange): void {
    const path = change.path;
    const theirs = getPath(this.view, path);
    if (change.kind === 'remove' ? theirs === undefined : jsonEqual(theirs, change.value)) {
      this.item({ group: 'kept', kind: 'property', path, reason: 'the new version has the same', yours: change.value });
      return;
    }
    const parentValue = getPath(this.view, path.slice(0, -1));
    if (path.length > 1 && parentValue !== undefined && !isPlainObject(parentValue)) {
      this.item({
        group: 'dropped',
        kind: 'property',
        path,
        reason: 'the new version uses this place for something else',
        yours: change.value,
      });
      return;
    }
    const conflict = theirs !== undefined && !jsonEqual(theirs, change.base);
    if (change.kind === 'remove') this.remove(path);
    else this.set(path, change.value);
    this.item({
      group: conflict ? 'review' : 'kept',
      kind: 'property',
      path,
      reason: conflict
        ? 'the new version changed this too; yours is kept'
        : change.kind === 'remove'
          ? 'removed by you'
          : 'your value',
      yours: change.value,
      theirs: conflict ? theirs : undefined,
    });
  }

  // ---- Orders: every section (block) listed once, none that is gone ----

  private touchOrder(entity: Entity): void {
    if (entity.kind === 'section' && this.input.kind === 'template') {
      this.registerOrder(['sections'], ['order']);
    } else if (entity.kind === 'block' && entity.parent !== null) {
      this.registerOrder([...entity.parent.path, 'blocks'], [...entity.parent.path, 'block_order']);
    }
  }

  private registerOrder(container: JsonPath, order: JsonPath): void {
    const key = pathText(order);
    if (!this.orders.has(key)) this.orders.set(key, { container, order });
  }

  private fixOrders(): void {
    for (const { container, order } of this.orders.values()) {
      const items = getPath(this.view, container);
      const current = getPath(this.view, order);
      if (!isPlainObject(items) || (!Array.isArray(current) && current !== undefined)) continue;
      if (current === undefined && Object.keys(items).length === 0) continue;
      const fixed = fixOrder(
        Array.isArray(current) ? current : [],
        Object.keys(items),
        getPath(this.merchant, order),
        getPath(this.original, order),
      );
      if (!jsonEqual(fixed, current)) this.set(order, fixed);
    }
  }

  // ---- Edits: the text and the view together ----

  private set(path: JsonPath, value: unknown): void {
    this.materialiseCurrent();
    this.editor.set(path, value);
    setPath(this.view, path, structuredClone(value));
  }

  private remove(path: JsonPath): void {
    this.materialiseCurrent();
    this.editor.remove(path);
    setPath(this.view, path, undefined);
  }

  /** settings_data whose `current` names a preset: the preset's settings become `current` before the first edit. */
  private materialiseCurrent(): void {
    if (!this.currentIsPreset) return;
    this.currentIsPreset = false;
    this.editor.set(['current'], structuredClone(this.view.current));
  }

  private item(item: Omit<ReportItem, 'file' | 'path'> & { path: JsonPath }): void {
    const { path, ...rest } = item;
    const clean = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    this.input.report.add({ ...(clean as Omit<ReportItem, 'file'>), file: this.input.file, path: pathText(path) });
  }
}

/** Members holding entities: sections, blocks (and app embeds), colour schemes. */
const CONTAINERS = new Set(['sections', 'blocks', 'color_schemes']);

/** A section or block whose settings and blocks belong to an app (not checked against the theme). */
const APP_OWNED: SectionSchema = {
  settings: new Map(),
  blocks: new Map(),
  acceptsAppBlocks: true,
  acceptsThemeBlocks: false,
};

/**
 * An order array fixed against its container: keys that are gone are removed, duplicates dropped, and keys missing
 * from it are placed after their predecessor in the merchant's order, else in the new version's, else at the end.
 */
export function fixOrder(current: unknown[], keys: string[], merchantOrder: unknown, targetOrder: unknown): string[] {
  const present = new Set(keys);
  const result: string[] = [];
  for (const key of current) if (typeof key === 'string' && present.has(key) && !result.includes(key)) result.push(key);
  for (const key of keys) {
    if (result.includes(key)) continue;
    const at = anchorIndex(result, key, merchantOrder) ?? anchorIndex(result, key, targetOrder);
    if (at === undefined) result.push(key);
    else result.splice(at, 0, key);
  }
  return result;
}

function anchorIndex(result: string[], key: string, order: unknown): number | undefined {
  if (!Array.isArray(order)) return undefined;
  const position = order.indexOf(key);
  if (position < 0) return undefined;
  for (let index = position - 1; index >= 0; index -= 1) {
    const found = result.indexOf(order[index] as string);
    if (found >= 0) return found + 1;
  }
  for (let index = position + 1; index < order.length; index += 1) {
    const found = result.indexOf(order[index] as string);
    if (found >= 0) return found;
  }
  return undefined;
}

function asObject(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

function reportKind(kind: EntityKind): ReportItem['kind'] {
  return kind === 'section' ? 'section' : kind === 'scheme' ? 'setting' : 'block';
}

function describe(kind: EntityKind, value: unknown): string {
  const type = isPlainObject(value) && typeof value.type === 'string' ? ` ${value.type}` : '';
  const noun = { section: 'section', block: 'block', embed: 'app embed', scheme: 'colour scheme' }[kind];
  return `${noun}${type}`;
}

function removedReason(entity: Entity): string {
  const noun = { section: 'section', block: 'block', embed: 'app embed', scheme: 'colour scheme' }[entity.kind];
  return `removed by you: the ${noun} stays removed`;
}
