import { describe, expect, it } from 'vitest';
import { ThemeUpgradeError } from './errors';
import { parseLenientJson } from './lenient-json';
import {
  emptyMergeReport,
  globalSettingsOf,
  mergeLocale,
  mergeSettingsData,
  mergeTemplate,
  parseLiquidSchema,
  type TargetSchema,
} from './merge';
import { checkSettingValue } from './setting-types';
import { editionFromThemeFiles } from './theme-info';

const section = (schema: unknown) => `<div></div>\n{% schema %}\n${JSON.stringify(schema)}\n{% endschema %}\n`;

function target(): TargetSchema {
  const sections = new Map();
  sections.set(
    'main',
    parseLiquidSchema(
      section({
        settings: [{ type: 'text', id: 'title' }],
        blocks: [{ type: '@app' }, { type: '@theme' }, { type: 'row', settings: [{ type: 'checkbox', id: 'bold' }] }],
      }),
    ),
  );
  sections.set('plain', parseLiquidSchema(section({ settings: [], blocks: [{ type: 'row', settings: [] }] })));
  const themeBlocks = new Map();
  themeBlocks.set('card', parseLiquidSchema(section({ settings: [{ type: 'color', id: 'tint' }] })));
  const globalSettings = globalSettingsOf([
    { name: 'theme_info' },
    {
      name: 'Colors',
      settings: [
        { type: 'color', id: 'accent' },
        { type: 'header', content: 'x' },
      ],
    },
  ]);
  return { sections, themeBlocks, globalSettings };
}

describe('parseLenientJson', () => {
  it('accepts a BOM, comments anywhere and trailing commas, and keeps comment-like text inside strings', () => {
    const text = '\uFEFF/* head */\n{ "a": "http://x//y", // note\n "b": [1, 2,], /* c */ "c": "/* no */", }\n';
    const parsed = parseLenientJson(text, 'x.json');
    expect(parsed.value).toEqual({ a: 'http://x//y', b: [1, 2], c: '/* no */' });
    expect(parsed.leading).toBe('\uFEFF/* head */\n');
  });

  it('refuses what is not JSON, naming the file', () => {
    expect(() => parseLenientJson('{ "a": ', 'templates/x.json')).toThrow(ThemeUpgradeError);
    expect(() => parseLenientJson('{ "a": 1 /* open', 'templates/x.json')).toThrow(/templates\/x\.json/);
  });
});

describe('checkSettingValue', () => {
  it.each([
    [{ type: 'color', id: 'c' }, '#a1b2c3', null],
    [{ type: 'color', id: 'c' }, 'rgba(0, 0, 0, 0.5)', null],
    [{ type: 'color', id: 'c' }, 'blue-ish', 'not a colour'],
    [{ type: 'color', id: 'c' }, 12, 'not a colour'],
    [{ type: 'checkbox', id: 'c' }, 'true', 'not true or false'],
    [{ type: 'select', id: 's', options: [{ value: 'a' }] }, 'a', null],
    [{ type: 'radio', id: 's', options: [{ value: 'a' }] }, 'b', 'not one of the options'],
    [{ type: 'range', id: 'r', min: 1, max: 4 }, 0, 'below the minimum 1'],
    [{ type: 'number', id: 'n' }, null, null],
    [{ type: 'text', id: 't' }, 3, 'not text'],
    [{ type: 'product_list', id: 'p' }, ['a', 'b'], null],
    [{ type: 'some_future_type', id: 'f' }, { any: 1 }, null],
  ])('%o with %o → %s', (setting, value, expected) => {
    expect(checkSettingValue(setting, value)).toBe(expected);
  });
});

describe('mergeTemplate', () => {
  it('keeps app blocks only where @app is accepted, theme blocks where @theme is, and filters their settings', () => {
    const report = emptyMergeReport();
    const merged = mergeTemplate(
      {
        sections: {
          a: {
            type: 'main',
            settings: { title: 'Hi', gone: 1 },
            blocks: {
              app: { type: 'shopify://apps/reviews/blocks/stars/1', settings: { anything: true } },
              card: { type: 'card', settings: { tint: '#fff', tint2: 'x' } },
              row: { type: 'row', settings: { bold: 'yes' } },
              odd: { type: 'odd', settings: {} },
            },
            block_order: ['odd', 'row', 'card', 'app'],
          },
          b: {
            type: 'plain',
            blocks: { app: { type: 'shopify://apps/reviews/blocks/stars/1' } },
            block_order: ['app'],
          },
          c: { type: 'shopify://apps/forms/sections/form/2', settings: { x: 1 } },
        },
        order: ['c', 'b', 'a'],
      },
      'templates/index.json',
      target(),
      report,
    );
    expect(merged).toEqual({
      sections: {
        a: {
          type: 'main',
          settings: { title: 'Hi' },
          blocks: {
            app: { type: 'shopify://apps/reviews/blocks/stars/1', settings: { anything: true } },
            card: { type: 'card', settings: { tint: '#fff' } },
            row: { type: 'row', settings: {} },
          },
          block_order: ['row', 'card', 'app'],
        },
        b: { type: 'plain', blocks: {}, block_order: [] },
        c: { type: 'shopify://apps/forms/sections/form/2', settings: { x: 1 } },
      },
      order: ['c', 'b', 'a'],
    });
    expect(report.sections.dropped.map((d) => d.scope)).toEqual(['sections.a.blocks.odd', 'sections.b.blocks.app']);
    expect(report.settings.dropped.map((d) => [d.scope, d.id, d.oldValue])).toEqual([
      ['sections.a', 'gone', 1],
      ['sections.a.blocks.card', 'tint2', 'x'],
      ['sections.a.blocks.row', 'bold', 'yes'],
    ]);
  });
});

describe('keys that would reach an object prototype', () => {
  it('are reported as dropped, never assigned', () => {
    const report = emptyMergeReport();
    const merchant = JSON.parse(
      '{"sections":{"__proto__":{"type":"main"},"x":{"type":"shopify://apps/a/sections/b/1","settings":{"__proto__":{"p":1}}}}}',
    ) as unknown;
    const merged = mergeTemplate(merchant, 'templates/index.json', target(), report) as {
      sections: Record<string, { settings: Record<string, unknown> }>;
    };
    expect(Object.getPrototypeOf(merged.sections)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(merged.sections.x?.settings)).toBe(Object.prototype);
    expect(report.sections.dropped.map((d) => d.scope)).toEqual(['sections.__proto__']);
    expect(report.settings.dropped.map((d) => d.id)).toEqual(['__proto__']);
  });
});

describe('mergeSettingsData', () => {
  it('resolves a preset named in current, keeps app embeds, replaces the token and takes the target presets', () => {
    const report = emptyMergeReport();
    const merged = mergeSettingsData(
      {
        current: 'Bold',
        presets: {
          Bold: {
            accent: '#000',
            missing: 1,
            license_token: 'old-secret-token',
            blocks: { e: { type: 'shopify://x' } },
          },
        },
      },
      { current: {}, presets: { Default: { accent: '#111' } } },
      new Map(),
      target(),
      report,
    );
    expect(merged).toEqual({
      current: { accent: '#000', blocks: { e: { type: 'shopify://x' } } },
      presets: { Default: { accent: '#111' } },
    });
    expect(report.settings.dropped).toEqual([expect.objectContaining({ id: 'missing', oldValue: 1 })]);
    expect(JSON.stringify(report)).not.toContain('old-secret-token');
  });
});

describe('mergeLocale', () => {
  it('carries only overrides: texts equal to the original take the target’s new wording', () => {
    const report = emptyMergeReport();
    const merged = mergeLocale(
      { a: { b: 'Mine', c: 'Vendor old' }, d: 'x' },
      { a: { b: 'Vendor', c: 'Vendor old' }, d: 'x' },
      { a: { b: 'Vendor 2', c: 'Vendor new' }, d: { nested: 'y' } },
      'locales/en.default.json',
      report,
    );
    expect(merged).toEqual({ a: { b: 'Mine', c: 'Vendor new' }, d: { nested: 'y' } });
    expect(report.locales.kept).toEqual([{ file: 'locales/en.default.json', key: 'a.b', value: 'Mine' }]);
    expect(report.locales.vendorTextUpdated).toBe(2);
  });
});

describe('editionFromThemeFiles', () => {
  it('reads the theme name first, then the license snippet marker', () => {
    expect(editionFromThemeFiles('Aurora Regular', undefined)).toBe('REGULAR');
    expect(editionFromThemeFiles('Aurora', '{%- comment -%} Edition: PRO. {%- endcomment -%}')).toBe('PRO');
    expect(editionFromThemeFiles('Aurora', undefined)).toBeNull();
  });
});
