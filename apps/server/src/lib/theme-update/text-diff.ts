/**
 * Unified diffs of the merchant's edits (Liquid, CSS, JS…) for the report, with the `diff` library: bounded, so a
 * huge or binary file never costs the run more than a note.
 */
import { createTwoFilesPatch } from 'diff';

/** Files larger than this are not diffed (the merchant's copy is in the review download anyway). */
const MAX_DIFFED_BYTES = 512 * 1024;
/** A diff longer than this is cut (the report is stored and downloaded whole). */
export const MAX_DIFF_CHARS = 64 * 1024;
/** Edits beyond this many lines are not worth a diff: a rewritten file. */
const MAX_EDIT_LENGTH = 5000;

/** A diff of `before` → `after` for people: `a/<file>` is `beforeLabel`'s, `b/<file>` the merchant's. */
export function unifiedDiff(file: string, before: Buffer, after: Buffer, beforeLabel: string): string {
  if (before.length > MAX_DIFFED_BYTES || after.length > MAX_DIFFED_BYTES) {
    return `(no diff: ${file} is larger than ${MAX_DIFFED_BYTES / 1024} KB; compare it with your copy)`;
  }
  if (isBinary(before) || isBinary(after)) return `(no diff: ${file} is not a text file)`;
  let patch = createTwoFilesPatch(
    `a/${file}`,
    `b/${file}`,
    before.toString('utf8'),
    after.toString('utf8'),
    beforeLabel,
    'your theme',
    { context: 3, maxEditLength: MAX_EDIT_LENGTH },
  );
  if (patch === undefined) return `(no diff: ${file} was rewritten; compare it with your copy)`;
  // Without the "Index:" line, the patch starts with a rule of "=" signs: the two file lines say it all.
  patch = patch.replace(/^=+\n/, '');
  return patch.length > MAX_DIFF_CHARS
    ? `${patch.slice(0, MAX_DIFF_CHARS)}\n… (the diff is cut here; your whole file is in the review download)\n`
    : patch;
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}
