import { describe, expect, it } from 'vitest';
import { injectLicenseToken, parseShopifyJson, planLicenseTokenEdit, writeLicenseToken } from './settings-data';
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

  it('keeps JSON on one line on one line', () => {
    expect(injectLicenseToken('{"current":{"a":1}}', 't')).toBe('{"current":{"a":1,"license_token":"t"}}');
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
    expect(output).toBe('{\n  "current": {\n    "license_token": "tok"\n  }\n}\n');
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

/** A settings file as Shopify writes it, with values a re-serialisation would change. */
const SHOPIFY_FILE = [
  '{',
  '  "current": {',
  '    "big_number": 12345678901234567890,',
  '    "ratio": 1.50,',
  '    "cafe": "Caf\\u00e9",',
  '    "license_token": "",',
  '    "sections": {"header": {"type": "header", "settings": {"sticky": true}}},',
  '    "tail":   [1e2, -0.0, null]',
  '  },',
  '  "presets": {',
  '    "Default": {',
  '      "ratio": 1.50',
  '    }',
  '  }',
  '}',
  '',
].join('\n');

describe('injectLicenseToken edits the text in place', () => {
  it('replaces the value of the setting and leaves every other byte as it was', () => {
    const output = injectLicenseToken(SHOPIFY_FILE, 'tok-123');
    expect(output).toBe(SHOPIFY_FILE.replace('"license_token": ""', '"license_token": "tok-123"'));
    expect(output).toContain('12345678901234567890');
    expect(output).toContain('"ratio": 1.50');
    expect(output).toContain('Caf\\u00e9');
  });

  it('replaces a value of any type, and the last of duplicated keys (the one JSON.parse reads)', () => {
    expect(injectLicenseToken('{"current":{"license_token":null}}', 't')).toBe('{"current":{"license_token":"t"}}');
    expect(injectLicenseToken('{"current":{"license_token":{"a":[1]}}}', 't')).toBe(
      '{"current":{"license_token":"t"}}',
    );
    const duplicated = '{"current":{"license_token":"a","x":1,"license_token":"b"}}';
    const output = injectLicenseToken(duplicated, 't');
    expect(output).toBe('{"current":{"license_token":"a","x":1,"license_token":"t"}}');
    expect(parseOutput(output)).toEqual({ current: { license_token: 't', x: 1 } });
  });

  it('inserts the setting after the last one of current, in the style of its members', () => {
    const input = SHOPIFY_FILE.replace('    "license_token": "",\n', '');
    expect(injectLicenseToken(input, 'tok')).toBe(
      input.replace('"tail":   [1e2, -0.0, null]', '"tail":   [1e2, -0.0, null],\n    "license_token": "tok"'),
    );
  });

  it('inserts into an empty current object', () => {
    expect(injectLicenseToken('{\n  "current": {},\n  "presets": {}\n}\n', 'tok')).toBe(
      '{\n  "current": {\n    "license_token": "tok"\n  },\n  "presets": {}\n}\n',
    );
    expect(injectLicenseToken('{"current":{ }}', 'tok')).toBe('{"current":{"license_token":"tok" }}');
  });

  it('inserts into the named preset, and creates it (indented like the file) when missing', () => {
    const named = SHOPIFY_FILE.replace(/"current": \{[\s\S]*?\n {2}\},/, '"current": "Default",');
    expect(injectLicenseToken(named, 'tok')).toBe(
      named.replace('      "ratio": 1.50\n', '      "ratio": 1.50,\n      "license_token": "tok"\n'),
    );
    const missing = named.replace('"current": "Default"', '"current": "Summer"');
    expect(injectLicenseToken(missing, 'tok')).toBe(
      missing.replace(
        '      "ratio": 1.50\n    }\n',
        '      "ratio": 1.50\n    },\n    "Summer": {\n      "license_token": "tok"\n    }\n',
      ),
    );
  });

  it('creates current as the first member when it is missing, and replaces an invalid one in place', () => {
    const input = '{\n    "presets": {\n        "Default": {}\n    }\n}\n';
    expect(injectLicenseToken(input, 'tok')).toBe(
      '{\n    "current": {\n        "license_token": "tok"\n    },\n    "presets": {\n        "Default": {}\n    }\n}\n',
    );
    expect(injectLicenseToken('{"a":1,"current":null,"b":2}', 'tok')).toBe(
      '{"a":1,"current":{"license_token":"tok"},"b":2}',
    );
  });

  it('keeps a BOM and comment header, and takes the style from the JSON only', () => {
    const prefix = `\uFEFF${SHOPIFY_COMMENT}\n`;
    const input = `${prefix}{"current":{"a":1}}\n`;
    expect(injectLicenseToken(input, 'tok')).toBe(`${prefix}{"current":{"a":1,"license_token":"tok"}}\n`);
  });

  it('keeps CRLF line ends in what it inserts', () => {
    const input = '{\r\n  "presets": {}\r\n}\r\n';
    expect(injectLicenseToken(input, 'tok')).toBe(
      '{\r\n  "current": {\r\n    "license_token": "tok"\r\n  },\r\n  "presets": {}\r\n}\r\n',
    );
  });

  it('writes any token as a JSON string', () => {
    const token = 'quote " backslash \\ newline \n é \u2028';
    const output = injectLicenseToken(SHOPIFY_FILE, token);
    expect((parseOutput(output)['current'] as Record<string, unknown>)['license_token']).toBe(token);
  });

  it('plans once and writes any number of tokens', () => {
    const edit = planLicenseTokenEdit(SHOPIFY_FILE);
    expect(writeLicenseToken(edit, 'one')).toBe(injectLicenseToken(SHOPIFY_FILE, 'one'));
    expect(writeLicenseToken(edit, 'two')).toBe(injectLicenseToken(SHOPIFY_FILE, 'two'));
  });

  it('skips deeply nested values of other settings without running out of stack', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const input = `{"current":{"deep":${deep},"license_token":""}}`;
    expect(injectLicenseToken(input, 't')).toBe(`{"current":{"deep":${deep},"license_token":"t"}}`);
  });
});
