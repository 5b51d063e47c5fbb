import { describe, expect, it } from 'vitest';
import { chooseRange, type RangeChoice } from './byte-range';

const file = { size: 1000, etag: '"abc"' };
const partial = (start: number, end: number): RangeChoice => ({ kind: 'partial', start, end });
const full: RangeChoice = { kind: 'full' };
const unsatisfiable: RangeChoice = { kind: 'unsatisfiable' };

describe('chooseRange', () => {
  it.each<[string | undefined, RangeChoice]>([
    [undefined, full],
    ['bytes=0-99', partial(0, 99)],
    ['bytes=100-', partial(100, 999)],
    ['bytes=-50', partial(950, 999)],
    ['bytes=-5000', partial(0, 999)],
    ['bytes=999-999', partial(999, 999)],
    ['bytes=0-999999999999', partial(0, 999)],
    ['BYTES = 10 - 20', partial(10, 20)],
    ['bytes=1000-', unsatisfiable],
    ['bytes=1000-2000', unsatisfiable],
    ['bytes=-0', unsatisfiable],
    ['bytes=20-10', full],
    ['bytes=0-1,5-6', full],
    ['bytes=-', full],
    ['bytes=abc', full],
    ['items=0-10', full],
    ['bytes=0x10-20', full],
    ['', full],
  ])('Range %j → %j', (range, expected) => {
    expect(chooseRange({ range }, file)).toEqual(expected);
  });

  it('sends the whole file when If-Range names another copy', () => {
    expect(chooseRange({ range: 'bytes=0-9', ifRange: '"abc"' }, file)).toEqual(partial(0, 9));
    expect(chooseRange({ range: 'bytes=0-9', ifRange: '"other"' }, file)).toEqual(full);
    expect(chooseRange({ range: 'bytes=0-9', ifRange: 'W/"abc"' }, file)).toEqual(full);
    expect(chooseRange({ range: 'bytes=0-9', ifRange: 'Wed, 21 Oct 2015 07:28:00 GMT' }, file)).toEqual(full);
  });

  it('finds nothing to send in an empty file', () => {
    expect(chooseRange({ range: 'bytes=0-' }, { size: 0, etag: '"e"' })).toEqual(unsatisfiable);
    expect(chooseRange({ range: 'bytes=-1' }, { size: 0, etag: '"e"' })).toEqual(unsatisfiable);
  });
});
