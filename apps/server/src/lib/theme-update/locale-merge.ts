/**
 * locales/*.json (and *.schema.json) three ways: the texts the merchant changed or added (release → export) are
 * written into the new version's file in place, text by text; every other text — and every other byte — is the new
 * version's. A text the new version removed is reported dropped with the merchant's words; one both changed keeps
 * the merchant's and reports the new version's.
 */
import type { ReportItem } from '@keyport/shared/contracts/theme-file-updates';
import { diffJson, getPath, jsonEqual, pathText, setPath, type JsonPath } from './json-changes';
import { JsonTextEditor, parseThemeJson } from './json-text';
import type { ReportSink } from './report';
import { isPlainObject } from './setting-types';

export function mergeLocale(input: {
  file: string;
  base: string;
  merchant: string;
  target: string;
  report: ReportSink;
}): string {
  const { file, report } = input;
  const base = parseThemeJson(input.base, file);
  const merchant = parseThemeJson(input.merchant, file);
  const view = parseThemeJson(input.target, file);
  const editor = new JsonTextEditor(input.target);
  const item = (entry: Omit<ReportItem, 'file' | 'path' | 'kind'> & { path: JsonPath }) => {
    const { path, ...rest } = entry;
    const clean = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    report.add({ ...(clean as Omit<ReportItem, 'file' | 'kind'>), kind: 'text', file, path: pathText(path) });
  };
  for (const change of diffJson(base, merchant, { expandAdded: () => true })) {
    const { path } = change;
    const theirs = getPath(view, path);
    if (change.kind === 'remove') {
      if (theirs !== undefined) {
        item({
          group: 'dropped',
          path,
          reason: 'removing a text is not carried over: the new version’s is kept',
          theirs,
        });
      }
      continue;
    }
    const yours = change.value;
    if (jsonEqual(theirs, yours)) {
      item({ group: 'kept', path, reason: 'the new version has the same text', yours });
      continue;
    }
    if (theirs === undefined && change.base !== undefined) {
      item({ group: 'dropped', path, reason: 'the new version no longer has this text', yours });
      continue;
    }
    const blocked = blockingAncestor(view, path);
    if (isPlainObject(theirs) !== isPlainObject(yours) && theirs !== undefined) {
      item({ group: 'dropped', path, reason: 'the new version uses this key differently', yours, theirs });
      continue;
    }
    if (blocked) {
      item({ group: 'dropped', path, reason: 'the new version uses this key differently', yours });
      continue;
    }
    const conflict = theirs !== undefined && change.base !== undefined && !jsonEqual(theirs, change.base);
    editor.set(path, yours);
    if (isPlainObject(view)) setPath(view, path, structuredClone(yours));
    item({
      group: conflict ? 'review' : 'kept',
      path,
      reason: conflict
        ? 'the new version changed this text too; yours is kept'
        : change.base === undefined
          ? 'your own text'
          : 'your text',
      yours,
      theirs: conflict ? theirs : undefined,
    });
  }
  return editor.toString();
}

/** Whether a step on the way to `path` is a text (not a group of texts) in the new version. */
function blockingAncestor(view: unknown, path: JsonPath): boolean {
  for (let length = 1; length < path.length; length += 1) {
    const value = getPath(view, path.slice(0, length));
    if (value === undefined) return false;
    if (!isPlainObject(value)) return true;
  }
  return false;
}
