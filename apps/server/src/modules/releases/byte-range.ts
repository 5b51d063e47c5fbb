/**
 * HTTP Range on the signed download link (RFC 9110 §14): one byte range of the zip, so a large download can resume.
 * Several ranges, other units and malformed headers are ignored (the whole file is sent, as the RFC allows); a range
 * that starts past the end is unsatisfiable (416).
 */

/** What to send: the whole file, the bytes `start`…`end` (inclusive), or nothing (416). */
export type RangeChoice =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes[ \t]*=[ \t]*(\d*)[ \t]*-[ \t]*(\d*)[ \t]*$/i;

/**
 * The range to send for a GET with these headers, of a file of `size` bytes whose strong ETag is `etag`. An If-Range
 * that is not this ETag asks for the whole file (the copy the client holds is another one).
 */
export function chooseRange(
  headers: { range?: string | undefined; ifRange?: string | undefined },
  file: { size: number; etag: string },
): RangeChoice {
  const { range, ifRange } = headers;
  if (range === undefined) return { kind: 'full' };
  if (ifRange !== undefined && ifRange.trim() !== file.etag) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(range);
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  const { size } = file;
  if (first === '') {
    // A suffix: the last N bytes.
    if (last === '') return { kind: 'full' };
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'partial', start, end };
}
