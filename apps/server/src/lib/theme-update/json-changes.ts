/**
 * What the merchant changed in a JSON file: the difference between the release they started from (base) and their
 * export, as a list of changes at JSON paths. Objects are compared member by member; arrays and scalars are values
 * (a changed `order` is one change). Values are JSON (parsed theme files): plain objects, arrays, strings, numbers,
 * booleans and null.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from './setting-types';

export type JsonPath = string[];

export interface JsonChange {
  path: JsonPath;
  /** `set`: added or changed (`value` is the merchant's); `remove`: the merchant removed the member. */
  kind: 'set' | 'remove';
  value?: unknown;
  /** The base's value at the path; undefined when the merchant added it. */
  base?: unknown;
}

export interface DiffOptions {
  /** Whether the object at `path` is compared as one value (e.g. a section whose type changed). */
  atomic?: (path: JsonPath, base: Record<string, unknown>, merchant: Record<string, unknown>) => boolean;
  /** Whether an object the merchant added at `path` is listed member by member (a new container of sections or
   *  blocks, locale texts) rather than as one value. */
  expandAdded?: (path: JsonPath) => boolean;
}

export function diffJson(
  base: unknown,
  merchant: unknown,
  options: DiffOptions = {},
  path: JsonPath = [],
): JsonChange[] {
  const changes: JsonChange[] = [];
  walk(base, merchant, path, options, changes);
  return changes;
}

function walk(base: unknown, merchant: unknown, path: JsonPath, options: DiffOptions, out: JsonChange[]): void {
  if (base === undefined && merchant === undefined) return;
  if (merchant === undefined) {
    out.push({ path, kind: 'remove', base });
    return;
  }
  if (base === undefined && isPlainObject(merchant) && (options.expandAdded?.(path) ?? false)) {
    for (const [key, value] of Object.entries(merchant)) walk(undefined, value, [...path, key], options, out);
    return;
  }
  if (isPlainObject(base) && isPlainObject(merchant) && !(options.atomic?.(path, base, merchant) ?? false)) {
    for (const [key, value] of Object.entries(merchant)) walk(own(base, key), value, [...path, key], options, out);
    for (const [key, value] of Object.entries(base)) {
      if (!Object.hasOwn(merchant, key)) out.push({ path: [...path, key], kind: 'remove', base: value });
    }
    return;
  }
  if (!jsonEqual(base, merchant)) out.push({ path, kind: 'set', value: merchant, base });
}

function own(value: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(value, key) ? value[key] : undefined;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

/** The value at `path`, or undefined when a step is missing or not an object. */
export function getPath(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const key of path) {
    if (!isPlainObject(node) || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/** Sets (or with `undefined` removes) the value at `path`, creating objects on the way. */
export function setPath(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (isPlainObject(next)) {
      node = next;
    } else {
      const created: Record<string, unknown> = {};
      node[key] = created;
      node = created;
    }
  }
  const last = path.at(-1);
  if (last === undefined) return;
  if (value === undefined) delete node[last];
  else node[last] = value;
}

/** `a.b.c` for people (the report's paths). */
export const pathText = (path: readonly string[]) => path.join('.');
