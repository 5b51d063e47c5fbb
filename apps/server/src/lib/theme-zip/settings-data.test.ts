import { describe, expect, it } from 'vitest';
import { injectLicenseToken, parseShopifyJson } from './settings-data';
import { ThemeZipError } from './errors';

const SHOPIFY_COMMENT = [
  '/*',
  ' * ------------------------------------------------------------',
  ' * IMPORTANT: The contents of this file are auto-generated.',
  ' * ------------------------------------------------------------',
  ' */',
].join('\n');

function parseOutput(text: string): Record<string, unknown> {
  const { value } = parseShopifyJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
  return value as Record<string, unknown>;
}

function catchError(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('injectLicenseToken', () => {
  it('sets the token on a current object and keeps every other field', () => {
    const input = JSON.stringify({
      current: { colors_accent: '#ff0000', license_token: 'old', nested: { a: [1, 2] } },
      presets: { Default: { colors_accent: '#000000' } },
      platform_customizations: { custom_css: [] },
    });
    const output = parseOutput(injectLicenseToken(input, 'tok-123'));
    expect(output).toEqual({
      current: { colors_accent: '#ff0000', license_token: 'tok-123', nested: { a: [1, 2] } },
      presets: { Default: { colors_accent: '#000000' } },
      platform_customizations: { custom_css: [] },
    });
  });

  it('writes 2-space indented JSON', () => {
    const output = injectLicenseToken('{"current":{"a":1}}', 't');
    expect(output).toBe('{\n  "current": {\n    "a": 1,\n    "license_token": "t"\n  }\n}\n');
  });

  it('keeps a BOM and Shopify comment prefix byte for byte', () => {
    const prefix = `\uFEFF${SHOPIFY_COMMENT}\n`;
    const output = injectLicenseToken(`${prefix}{"current":{"x":true}}`, 'tok');
    expect(output.startsWith(prefix)).toBe(true);
    expect(output.slice(prefix.length).startsWith('{')).toBe(true);
    expect(parseOutput(output)).toEqual({ current: { x: true, license_token: 'tok' } });
    expect(Buffer.from(output, 'utf8').subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('keeps a prefix of several comments, line comments and whitespace', () => {
    const prefix = '  /* one */\n// two\n/* three */\n\n';
    const output = injectLicenseToken(`${prefix}{"current":{}}`, 'tok');
    expect(output.startsWith(prefix)).toBe(true);
  });

  it('writes into the named preset when current is a preset name, keeping current', () => {
    const input = JSON.stringify({ current: 'Dawn', presets: { Dawn: { colors: 'dark' }, Other: {} } });
    const output = parseOutput(injectLicenseToken(input, 'tok'));
    expect(output).toEqual({
      current: 'Dawn',
      presets: { Dawn: { colors: 'dark', license_token: 'tok' }, Other: {} },
    });
  });

  it('creates the preset (and presets) when missing', () => {
    expect(parseOutput(injectLicenseToken('{"current":"Dawn"}', 'tok'))).toEqual({
      current: 'Dawn',
      presets: { Dawn: { license_token: 'tok' } },
    });
    expect(parseOutput(injectLicenseToken('{"current":"Dawn","presets":{"Other":{}}}', 'tok'))).toEqual({
      current: 'Dawn',
      presets: { Other: {}, Dawn: { license_token: 'tok' } },
    });
  });

  it('does not pollute prototypes through a preset named __proto__', () => {
    const output = parseOutput(injectLicenseToken('{"current":"__proto__","presets":{}}', 'tok'));
    expect(({} as Record<string, unknown>)['license_token']).toBeUndefined();
    expect(output['current']).toBe('__proto__');
    const presets = output['presets'] as Record<string, unknown>;
    expect(Object.hasOwn(presets, '__proto__')).toBe(true);
  });

  it.each([
    ['missing', '{"presets":{}}'],
    ['null', '{"current":null,"presets":{}}'],
    ['an array', '{"current":[1],"presets":{}}'],
    ['a number', '{"current":3,"presets":{}}'],
  ])('creates current when it is %s', (_label, input) => {
    const output = parseOutput(injectLicenseToken(input, 'tok'));
    expect(output['current']).toEqual({ license_token: 'tok' });
    expect(output['presets']).toEqual({});
    expect(Object.keys(output)[0]).toBe('current');
  });

  it('creates a fresh document when the file is missing', () => {
    const output = injectLicenseToken(null, 'tok');
    expect(JSON.parse(output)).toEqual({ current: { license_token: 'tok' } });
  });

  it('uses a custom setting id', () => {
    expect(parseOutput(injectLicenseToken('{"current":{}}', 'tok', 'keyport_key'))).toEqual({
      current: { keyport_key: 'tok' },
    });
  });

  it('rejects an unsafe setting id', () => {
    expect(() => injectLicenseToken('{}', 'tok', '__proto__')).toThrow(RangeError);
    expect(() => injectLicenseToken('{}', 'tok', 'a b')).toThrow(RangeError);
  });

  it.each([
    ['garbage', 'not json'],
    ['truncated JSON', '{"current": {'],
    ['an unclosed comment', '/* never closed {"current":{}}'],
    ['a trailing comment', '{"current":{}} /* x */'],
    ['an empty file', ''],
  ])('throws invalid_settings_json for %s', (_label, input) => {
    const error = catchError(() => injectLicenseToken(input, 'tok'));
    expect(error).toBeInstanceOf(ThemeZipError);
    expect(error).toMatchObject({ code: 'invalid_settings_json' });
  });

  it.each([['[]'], ['"text"'], ['42'], ['null']])('throws invalid_settings_json for a non-object root %s', (input) => {
    const error = catchError(() => injectLicenseToken(input, 'tok'));
    expect(error).toBeInstanceOf(ThemeZipError);
    expect(error).toMatchObject({ code: 'invalid_settings_json' });
  });
});
