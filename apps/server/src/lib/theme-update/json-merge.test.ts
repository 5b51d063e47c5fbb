import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import type { ReportItem } from '@keyport/shared/contracts/theme-file-updates';
import { describe, expect, it } from 'vitest';
import { ThemeUpdateError } from './errors';
import { fixOrder, mergeStructuredJson } from './json-merge';
import { JsonTextEditor, parseThemeJson } from './json-text';
import { mergeLocale } from './locale-merge';
import { checkSettingValue } from './setting-types';
import { buildThemeSchema, type ThemeSchema } from './theme-schema';
import { editionFromThemeFiles } from './theme-info';

const liquid = (schema: unknown) => `<div></div>\n{% schema %}\n${JSON.stringify(schema)}\n{% endschema %}\n`;

/** The new version's schema: a `main` section (@app, @theme, `row` blocks), a `plain` one, a `card` theme block. */
function schema(): ThemeSchema {
  return buildThemeSchema(
    new Map([
      [
        'sections/main.liquid',
        liquid({
          settings: [
            { type: 'text', id: 'title' },
            { type: 'range', id: 'columns', min: 1, max: 4 },
            { type: 'color_scheme', id: 'color_scheme' },
          ],
          blocks: [{ type: '@app' }, { type: '@theme' }, { type: 'row', settings: [{ type: 'checkbox', id: 'bold' }] }],
        }),
      ],
      ['sections/plain.liquid', liquid({ settings: [{ type: 'text', id: 'title' }], blocks: [{ type: 'row' }] })],
      ['blocks/card.liquid', liquid({ settings: [{ type: 'color', id: 'tint' }] })],
      [
        'config/settings_schema.json',
        JSON.stringify([
          { name: 'theme_info', theme_name: 'Aurora', theme_version: '2.0.0' },
          {
            name: 'Colors',
            settings: [
              { type: 'color', id: 'accent' },
              { type: 'range', id: 'logo_width', min: 50, max: 300 },
              {
                type: 'color_scheme_group',
                id: 'color_schemes',
                definition: [
                  { type: 'color', id: 'background' },
                  { type: 'color', id: 'text' },
                ],
              },
            ],
          },
        ]),
      ],
      [
        'config/settings_data.json',
        JSON.stringify({
          current: 'Default',
          presets: { Default: { color_schemes: { 'scheme-1': {}, 'scheme-2': {} } } },
        }),
      ],
    ]),
  );
}

function merge(
  kind: 'template' | 'settings_data',
  texts: { base: unknown; merchant: unknown; target: string },
  maps: MigrationMap[] = [],
) {
  const items: ReportItem[] = [];
  const text = mergeStructuredJson({
    file: kind === 'template' ? 'templates/index.json' : 'config/settings_data.json',
    kind,
    base: texts.base === null ? null : JSON.stringify(texts.base, null, 2),
    merchant: JSON.stringify(texts.merchant, null, 2),
    target: texts.target,
    schema: schema(),
    maps,
    report: { add: (item) => items.push(item) },
  });
  return { text, value: parseThemeJson(text, 'x.json') as Record<string, unknown>, items };
}

const by = (items: ReportItem[], path: string) => items.filter((item) => item.path === path);

const BASE_TEMPLATE = {
  sections: {
    hero: { type: 'main', settings: { title: 'Welcome', columns: 2 } },
    list: {
      type: 'main',
      settings: { title: 'List' },
      blocks: { a: { type: 'row', settings: { bold: false } }, b: { type: 'row', settings: { bold: true } } },
      block_order: ['a', 'b'],
    },
    promo: { type: 'plain', settings: { title: 'Sale' } },
  },
  order: ['hero', 'list', 'promo'],
};

/** The new version's template in its own style: a comment header, 4-space indentation, CRLF line ends. */
function targetText(value: unknown): string {
  return `/* vendor header */\r\n${JSON.stringify(value, null, 4).replaceAll('\n', '\r\n')}\r\n`;
}

describe('mergeStructuredJson: a template, three ways', () => {
  it('writes only the merchant’s change into the new version’s text: every other byte is the new version’s', () => {
    const target = structuredClone(BASE_TEMPLATE);
    target.sections.hero.settings.columns = 3; // the vendor's change
    const merchant = structuredClone(BASE_TEMPLATE);
    merchant.sections.hero.settings.title = 'Hello there';
    const targetBytes = targetText(target);
    const { text, value, items } = merge('template', { base: BASE_TEMPLATE, merchant, target: targetBytes });
    expect(text).toBe(targetBytes.replace('"Welcome"', '"Hello there"'));
    expect(value).toMatchObject({ sections: { hero: { settings: { title: 'Hello there', columns: 3 } } } });
    expect(items).toEqual([
      expect.objectContaining({
        group: 'kept',
        kind: 'setting',
        path: 'sections.hero.settings.title',
        yours: 'Hello there',
      }),
    ]);
  });

  it('a value both changed: the merchant’s is kept and reported for review with the new version’s', () => {
    const target = structuredClone(BASE_TEMPLATE);
    target.sections.hero.settings.title = 'Welcome to 2.0';
    const merchant = structuredClone(BASE_TEMPLATE);
    merchant.sections.hero.settings.title = 'Hello there';
    const { value, items } = merge('template', { base: BASE_TEMPLATE, merchant, target: targetText(target) });
    expect(value).toMatchObject({ sections: { hero: { settings: { title: 'Hello there' } } } });
    expect(by(items, 'sections.hero.settings.title')).toEqual([
      expect.objectContaining({ group: 'review', yours: 'Hello there', theirs: 'Welcome to 2.0' }),
    ]);
  });

  it('a removed block stays removed and leaves its order; a reordered page keeps the new version’s new section', () => {
    const target = structuredClone(BASE_TEMPLATE) as typeof BASE_TEMPLATE & { sections: Record<string, unknown> };
    target.sections.news = { type: 'plain', settings: { title: 'News' } };
    target.order = ['hero', 'news', 'list', 'promo'];
    const merchant = structuredClone(BASE_TEMPLATE) as typeof BASE_TEMPLATE;
    delete (merchant.sections.list.blocks as Record<string, unknown>).a;
    merchant.sections.list.block_order = ['b'];
    merchant.order = ['promo', 'list', 'hero'];
    const { value, items } = merge('template', { base: BASE_TEMPLATE, merchant, target: targetText(target) });
    expect(value.order).toEqual(['promo', 'list', 'hero', 'news']);
    expect(value).toMatchObject({ sections: { list: { block_order: ['b'] } } });
    expect(Object.keys((value.sections as Record<string, { blocks?: object }>).list!.blocks!)).toEqual(['b']);
    expect(by(items, 'sections.list.blocks.a')).toEqual([
      expect.objectContaining({ group: 'kept', kind: 'block', reason: 'removed by you: the block stays removed' }),
    ]);
    expect(by(items, 'order')).toEqual([expect.objectContaining({ group: 'kept', kind: 'order' })]);
  });

  it('adds app blocks where @app is accepted, theme blocks where @theme is; drops the rest with the value', () => {
    const merchant = structuredClone(BASE_TEMPLATE) as Record<string, unknown> & typeof BASE_TEMPLATE;
    const app = { type: 'shopify://apps/reviews/blocks/stars/1', settings: { anything: true } };
    Object.assign(merchant.sections.list.blocks, {
      app,
      card: { type: 'card', settings: { tint: '#ffffff', gone: 'x' } },
      odd: { type: 'odd', settings: {} },
    });
    merchant.sections.list.block_order = ['odd', 'card', 'a', 'b', 'app'];
    Object.assign(merchant.sections.promo, { blocks: { app }, block_order: ['app'] });
    const { value, items } = merge('template', {
      base: BASE_TEMPLATE,
      merchant,
      target: targetText(BASE_TEMPLATE),
    });
    const list = (value.sections as Record<string, Record<string, unknown>>).list!;
    expect(list.blocks).toEqual({
      a: { type: 'row', settings: { bold: false } },
      b: { type: 'row', settings: { bold: true } },
      app,
      card: { type: 'card', settings: { tint: '#ffffff' } },
    });
    expect(list.block_order).toEqual(['card', 'a', 'b', 'app']);
    expect(by(items, 'sections.list.blocks.odd')).toEqual([
      expect.objectContaining({ group: 'dropped', reason: 'the new version has no block type "odd" here' }),
    ]);
    expect(by(items, 'sections.list.blocks.card.settings.gone')).toEqual([
      expect.objectContaining({ group: 'dropped', yours: 'x' }),
    ]);
    expect(by(items, 'sections.promo.blocks.app')).toEqual([
      expect.objectContaining({
        group: 'dropped',
        reason: 'the new version of this section does not accept app blocks',
        yours: app,
      }),
    ]);
    expect((value.sections as Record<string, Record<string, unknown>>).promo).not.toHaveProperty('blocks.app');
  });

  it('drops values the new version has no place for, each with its reason and the merchant’s value', () => {
    const merchant = structuredClone(BASE_TEMPLATE) as Record<string, unknown> & typeof BASE_TEMPLATE;
    Object.assign(merchant.sections.hero.settings, { columns: 9, color_scheme: 'scheme-9', subtitle: 'x' });
    (merchant.sections as Record<string, unknown>).legacy = { type: 'legacy-banner', settings: { text: 'Hi' } };
    merchant.order = [...merchant.order, 'legacy'];
    const { value, items } = merge('template', { base: BASE_TEMPLATE, merchant, target: targetText(BASE_TEMPLATE) });
    expect(value.order).toEqual(['hero', 'list', 'promo']);
    expect(value.sections).not.toHaveProperty('legacy');
    expect(
      items.filter((item) => item.group === 'dropped').map((item) => [item.path, item.reason, item.yours]),
    ).toEqual(
      expect.arrayContaining([
        ['sections.hero.settings.columns', 'above the maximum 4', 9],
        ['sections.hero.settings.color_scheme', 'the new version has no colour scheme "scheme-9"', 'scheme-9'],
        ['sections.hero.settings.subtitle', 'the new version has no setting "subtitle" here', 'x'],
        [
          'sections.legacy',
          'the new version has no section type "legacy-banner"',
          { type: 'legacy-banner', settings: { text: 'Hi' } },
        ],
      ]),
    );
  });

  it('a section the new version took out of its template but the merchant changed comes back whole, for review', () => {
    const target = structuredClone(BASE_TEMPLATE) as Partial<typeof BASE_TEMPLATE> & typeof BASE_TEMPLATE;
    delete (target.sections as Record<string, unknown>).promo;
    target.order = ['hero', 'list'];
    const merchant = structuredClone(BASE_TEMPLATE);
    merchant.sections.promo.settings.title = 'Winter sale';
    const { value, items } = merge('template', { base: BASE_TEMPLATE, merchant, target: targetText(target) });
    expect(value).toMatchObject({ sections: { promo: { type: 'plain', settings: { title: 'Winter sale' } } } });
    expect(value.order).toEqual(['hero', 'list', 'promo']);
    expect(by(items, 'sections.promo')).toEqual([
      expect.objectContaining({ group: 'review', kind: 'section', yours: merchant.sections.promo }),
    ]);
  });

  it('renames through the migration map: section type, its settings and block types are moved, not dropped', () => {
    const base = {
      sections: {
        s: {
          type: 'old-main',
          settings: { heading: 'Hi' },
          blocks: { r: { type: 'line', settings: {} } },
          block_order: ['r'],
        },
      },
      order: ['s'],
    };
    const merchant = structuredClone(base);
    merchant.sections.s.settings.heading = 'Hello';
    const target = {
      sections: {
        s: {
          type: 'main',
          settings: { title: 'Hi' },
          blocks: { r: { type: 'row', settings: {} } },
          block_order: ['r'],
        },
      },
      order: ['s'],
    };
    const map: MigrationMap = {
      sections: { 'old-main': { type: 'main', settings: { heading: 'title' }, blocks: { line: { type: 'row' } } } },
    };
    const { value, items } = merge('template', { base, merchant, target: targetText(target) }, [map]);
    expect(value).toEqual({ ...target, sections: { s: { ...target.sections.s, settings: { title: 'Hello' } } } });
    expect(items).toEqual([
      expect.objectContaining({
        group: 'moved',
        path: 'sections.s.settings.title',
        from: { path: 'sections.s.settings.heading' },
        yours: 'Hello',
      }),
    ]);
  });
});

describe('mergeStructuredJson: settings_data.json', () => {
  const targetSettings = `/*\n * IMPORTANT: auto-generated\n */\n{\n  "current": "Default",\n  "presets": {\n    "Default": {\n      "accent": "#111111",\n      "logo_width": 90,\n      "color_schemes": {\n        "scheme-1": { "settings": { "background": "#FFFFFF", "text": "#000000" } }\n      }\n    }\n  }\n}\n`;

  it('materialises a preset-named current, applies the merchant’s changes and never the old license token', () => {
    const base = {
      current: {
        accent: '#111111',
        logo_width: 90,
        license_token: 'old',
        color_schemes: { 'scheme-1': { settings: { background: '#FFFFFF', text: '#000000' } } },
      },
    };
    const merchant = structuredClone(base);
    merchant.current.logo_width = 120;
    merchant.current.license_token = 'the-old-secret-token';
    merchant.current.color_schemes['scheme-1'].settings.background = '#FFF8F0';
    Object.assign(merchant.current, {
      blocks: { e1: { type: 'shopify://apps/reviews/blocks/core/1', disabled: false } },
    });
    const { text, value, items } = merge('settings_data', { base, merchant, target: targetSettings });
    expect(text.startsWith('/*\n * IMPORTANT: auto-generated\n */\n{\n  "current": {')).toBe(true);
    expect(value.current).toEqual({
      accent: '#111111',
      logo_width: 120,
      color_schemes: { 'scheme-1': { settings: { background: '#FFF8F0', text: '#000000' } } },
      blocks: { e1: { type: 'shopify://apps/reviews/blocks/core/1', disabled: false } },
    });
    expect(value.presets).toEqual((parseThemeJson(targetSettings, 'x') as Record<string, unknown>).presets);
    expect(JSON.stringify(items)).not.toContain('the-old-secret-token');
    expect(items.map((item) => [item.group, item.kind, item.path])).toEqual([
      ['kept', 'setting', 'current.logo_width'],
      ['kept', 'setting', 'current.color_schemes.scheme-1.settings.background'],
      ['kept', 'block', 'current.blocks.e1'],
    ]);
  });

  it('moves a renamed setting and colour scheme through the maps of every release in between', () => {
    const base = {
      current: {
        colour: '#111111',
        logo_width: 90,
        color_schemes: { 'background-1': { settings: { background: '#FFFFFF' } } },
      },
    };
    const merchant = structuredClone(base);
    merchant.current.colour = '#ff0044';
    merchant.current.color_schemes['background-1'].settings.background = '#000000';
    const maps: MigrationMap[] = [
      { settings: { colour: 'primary' } },
      { settings: { primary: 'accent' }, color_schemes: { 'background-1': 'scheme-1' } },
    ];
    const { value, items } = merge('settings_data', { base, merchant, target: targetSettings }, maps);
    expect(value.current).toMatchObject({
      accent: '#ff0044',
      color_schemes: { 'scheme-1': { settings: { background: '#000000' } } },
    });
    expect(value.current).not.toHaveProperty('colour');
    expect(items).toEqual([
      expect.objectContaining({
        group: 'moved',
        path: 'current.accent',
        from: { path: 'current.colour' },
        yours: '#ff0044',
      }),
      expect.objectContaining({
        group: 'moved',
        path: 'current.color_schemes.scheme-1.settings.background',
        from: { path: 'current.color_schemes.background-1.settings.background' },
      }),
    ]);
  });

  it('without a map a renamed setting is dropped with the merchant’s value; without a base every differing value counts', () => {
    const merchant = { current: { colour: '#ff0044', logo_width: 90 } };
    const threeWay = merge('settings_data', {
      base: { current: { colour: '#111111', logo_width: 90 } },
      merchant,
      target: targetSettings,
    });
    expect(threeWay.items).toEqual([
      expect.objectContaining({
        group: 'dropped',
        path: 'current.colour',
        yours: '#ff0044',
        reason: 'the new version has no setting "colour" here',
      }),
    ]);
    const twoWay = merge('settings_data', {
      base: null,
      merchant: { current: { logo_width: 100 } },
      target: targetSettings,
    });
    expect(twoWay.value.current).toMatchObject({ logo_width: 100, accent: '#111111' });
  });
});

describe('mergeLocale', () => {
  const base = { general: { add: 'Add to cart', search: 'Search', old: 'Old text' } };
  it('writes the merchant’s texts into the new version’s file in place; reports removed and conflicting texts', () => {
    const target =
      '{\n  "general": {\n    "add": "Add to cart",\n    "search": "Find",\n    "new": "New text"\n  }\n}\n';
    const merchant = { general: { add: 'Add to bag', search: 'Look up', old: 'My old text' }, custom: { hi: 'Howdy' } };
    const items: ReportItem[] = [];
    const text = mergeLocale({
      file: 'locales/en.default.json',
      base: JSON.stringify(base),
      merchant: JSON.stringify(merchant),
      target,
      report: { add: (item) => items.push(item) },
    });
    expect(text).toBe(
      '{\n  "general": {\n    "add": "Add to bag",\n    "search": "Look up",\n    "new": "New text"\n  },\n  "custom": {\n    "hi": "Howdy"\n  }\n}\n',
    );
    expect(items.map((item) => [item.group, item.path, item.yours, item.theirs])).toEqual([
      ['kept', 'general.add', 'Add to bag', undefined],
      ['review', 'general.search', 'Look up', 'Find'],
      ['dropped', 'general.old', 'My old text', undefined],
      ['kept', 'custom.hi', 'Howdy', undefined],
    ]);
  });
});

describe('fixOrder', () => {
  it('drops keys that are gone and places missing ones after their predecessor', () => {
    expect(fixOrder(['a', 'gone', 'c', 'a'], ['a', 'b', 'c', 'd'], ['a', 'b', 'c'], ['d', 'a'])).toEqual([
      'd',
      'a',
      'b',
      'c',
    ]);
  });
});

describe('theme JSON text', () => {
  it('parses Shopify’s dialect: a BOM, comments and trailing commas; refuses broken JSON and __proto__', () => {
    expect(parseThemeJson('\uFEFF/* head */\n{ "a": "http://x//y", // note\n "b": [1, 2,], }\n', 'x.json')).toEqual({
      a: 'http://x//y',
      b: [1, 2],
    });
    expect(() => parseThemeJson('{ "a": ', 'templates/x.json')).toThrow(ThemeUpdateError);
    expect(() => parseThemeJson('{ "a": ', 'templates/x.json')).toThrow(/templates\/x\.json is not valid JSON/);
    expect(() => parseThemeJson('{"__proto__": {"p": 1}}', 'x.json')).toThrow(/__proto__/);
  });

  it('edits in place in the file’s own indentation, keeping the BOM and every other byte', () => {
    const text = '\uFEFF{\n\t"a": 12345678901234567890,\n\t"b": "\\u00e9"\n}\n';
    const editor = new JsonTextEditor(text);
    editor.set(['c'], { d: 1 });
    expect(editor.toString()).toBe(
      '\uFEFF{\n\t"a": 12345678901234567890,\n\t"b": "\\u00e9",\n\t"c": {\n\t\t"d": 1\n\t}\n}\n',
    );
  });
});

describe('checkSettingValue', () => {
  it.each([
    [{ type: 'color', id: 'c' }, '#a1b2c3', null],
    [{ type: 'color', id: 'c' }, 'blue-ish', 'not a colour'],
    [{ type: 'checkbox', id: 'c' }, 'true', 'not true or false'],
    [{ type: 'radio', id: 's', options: [{ value: 'a' }] }, 'b', 'not one of the options'],
    [{ type: 'range', id: 'r', min: 1, max: 4 }, 0, 'below the minimum 1'],
    [{ type: 'number', id: 'n' }, null, null],
    [{ type: 'text', id: 't' }, 3, 'not text'],
    [{ type: 'product_list', id: 'p' }, ['a', 'b'], null],
    [{ type: 'color_scheme', id: 'cs' }, 'scheme-2', null],
    [{ type: 'some_future_type', id: 'f' }, { any: 1 }, null],
  ])('%o with %o → %s', (setting, value, expected) => {
    expect(checkSettingValue(setting, value, { colorSchemes: new Set(['scheme-1', 'scheme-2']) })).toBe(expected);
  });
});

describe('editionFromThemeFiles', () => {
  it('reads the theme name first, then the license snippet marker', () => {
    expect(editionFromThemeFiles('Aurora Regular', undefined)).toBe('REGULAR');
    expect(editionFromThemeFiles('Aurora', '{%- comment -%} Edition: PRO. {%- endcomment -%}')).toBe('PRO');
    expect(editionFromThemeFiles('Aurora', undefined)).toBeNull();
  });
});
