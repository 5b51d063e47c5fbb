import { safeParse } from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { idNumber, idString, isIdText, MAX_ID } from './ids';

describe('the bounded id (issue 19)', () => {
  it('is a PostgreSQL integer id: 1 to 2^31 − 1', () => {
    expect(MAX_ID).toBe(2 ** 31 - 1);
  });

  it.each([
    ['1', true],
    ['42', true],
    ['2147483647', true],
    ['2147483648', false],
    ['9007199254740992', false],
    ['0', false],
    ['007', false],
    ['-1', false],
    ['1.5', false],
    ['1e3', false],
    [' 1', false],
    ['abc', false],
    ['', false],
  ])('in a path or query: %j is an id: %s', (text, ok) => {
    expect(isIdText(text)).toBe(ok);
    expect(safeParse(idString(), text).success).toBe(ok);
  });

  it.each([
    [1, true],
    [MAX_ID, true],
    [MAX_ID + 1, false],
    [2 ** 53, false],
    [0, false],
    [-1, false],
    [1.5, false],
    [Number.NaN, false],
    ['1', false],
  ])('in a JSON body: %j is an id: %s', (value, ok) => {
    expect(safeParse(idNumber(), value).success).toBe(ok);
  });

  it('answers with the message it was given', () => {
    const result = safeParse(idNumber('Choose a license'), 2 ** 31);
    expect(result.success ? null : result.error.issues[0]?.message).toBe('Choose a license');
    const text = safeParse(idString('Invalid invoice'), '2147483648');
    expect(text.success ? null : text.error.issues[0]?.message).toBe('Invalid invoice');
  });
});
