import { describe, expect, it } from 'vitest';
import { ThemeZipError, isThemeZipError } from './errors';

describe('ThemeZipError', () => {
  it('carries a code, a message and an optional cause', () => {
    const cause = new Error('low level');
    const error = new ThemeZipError('invalid_zip', 'The file is not a valid zip archive', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ThemeZipError');
    expect(error.code).toBe('invalid_zip');
    expect(error.message).toBe('The file is not a valid zip archive');
    expect(error.cause).toBe(cause);
  });

  it('is recognised by isThemeZipError, optionally by code', () => {
    const error = new ThemeZipError('not_a_theme', 'nope');
    expect(isThemeZipError(error)).toBe(true);
    expect(isThemeZipError(error, 'not_a_theme')).toBe(true);
    expect(isThemeZipError(error, 'invalid_zip')).toBe(false);
    expect(isThemeZipError(new Error('plain'))).toBe(false);
    expect(isThemeZipError({ code: 'not_a_theme' })).toBe(false);
  });
});
