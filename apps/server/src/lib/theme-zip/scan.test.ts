import { describe, expect, it } from 'vitest';
import { findThemePrefix } from './scan';
import { ThemeZipError } from './errors';

const THEME_FILES = ['layout/theme.liquid', 'config/settings_schema.json', 'templates/index.json'];

function under(prefix: string, names: string[] = THEME_FILES): string[] {
  return names.map((name) => prefix + name);
}

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('findThemePrefix', () => {
  it('returns an empty prefix for a theme at the root', () => {
    expect(findThemePrefix([...THEME_FILES, 'README.md'])).toBe('');
  });

  it('returns the single top-level folder holding the theme', () => {
    expect(findThemePrefix(['dawn/', ...under('dawn/')])).toBe('dawn/');
  });

  it('ignores macOS resource forks', () => {
    expect(
      findThemePrefix([...under('dawn/'), '__MACOSX/layout/theme.liquid', '__MACOSX/dawn/layout/._theme.liquid']),
    ).toBe('dawn/');
  });

  it('prefers a theme at the root over nested copies', () => {
    expect(findThemePrefix([...THEME_FILES, ...under('backup/')])).toBe('');
  });

  it.each([
    ['no layout', ['config/settings_schema.json', 'templates/index.json'], /layout\/theme\.liquid is missing/],
    ['no config', ['layout/theme.liquid', 'templates/index.json'], /config\/ is missing/],
    [
      'only a templates directory entry',
      ['layout/theme.liquid', 'config/a.json', 'templates/'],
      /templates\/ is missing/,
    ],
    ['a layout two levels deep', under('a/b/'), /layout\/theme\.liquid is missing/],
  ])('rejects %s as not_a_theme', (_label, names, message) => {
    const error = catchError(() => findThemePrefix(names));
    expect(error).toBeInstanceOf(ThemeZipError);
    expect(error).toMatchObject({ code: 'not_a_theme' });
    expect(error instanceof Error ? error.message : '').toMatch(message);
  });

  it('rejects two theme folders', () => {
    const error = catchError(() => findThemePrefix([...under('a/'), ...under('b/')]));
    expect(error).toMatchObject({ code: 'multiple_themes' });
  });
});
