/** Test fixtures for the upgrade engine: demo-theme releases and merchant exports derived from them. */
import * as yauzl from 'yauzl';
import type { Entry } from 'yauzl';
import { generateThemeZip, type GenerateThemeZipOptions } from '../../db/demo-theme';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import * as yazl from 'yazl';

/** Every file of a zip, name → bytes (directories left out). */
export function readZipFiles(path: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zipfile) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zipfile.on('entry', (entry: Entry) => {
        if (entry.fileName.endsWith('/')) return zipfile.readEntry();
        zipfile.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.once('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zipfile.readEntry();
          });
          stream.once('error', reject);
        });
      });
      zipfile.once('end', () => resolve(files));
      zipfile.once('error', reject);
      zipfile.readEntry();
    });
  });
}

/** Writes `output` as `source` with files replaced (a string or Buffer) or removed (null). */
export async function deriveZip(
  source: string,
  output: string,
  changes: Record<string, string | Buffer | null>,
  folder = '',
): Promise<string> {
  const files = await readZipFiles(source);
  for (const [name, content] of Object.entries(changes)) {
    if (content === null) files.delete(name);
    else files.set(name, Buffer.isBuffer(content) ? content : Buffer.from(content));
  }
  const zip = new yazl.ZipFile();
  for (const [name, content] of files) {
    // Incompressible padding stays stored, as Shopify's export stores media.
    zip.addBuffer(content, folder + name, {
      mtime: new Date('2024-06-01T10:00:00Z'),
      compress: !name.endsWith('.bin'),
    });
  }
  const written = pipeline(zip.outputStream, createWriteStream(output));
  zip.end();
  await written;
  return output;
}

export const EXTRA_SETTINGS_V1 = [
  {
    type: 'select',
    id: 'layout_style',
    label: 'Layout',
    options: [
      { value: 'grid', label: 'Grid' },
      { value: 'list', label: 'List' },
    ],
    default: 'grid',
  },
  { type: 'range', id: 'columns', label: 'Columns', min: 1, max: 4, step: 1, default: 3 },
  { type: 'checkbox', id: 'show_badges', label: 'Badges', default: true },
  { type: 'text', id: 'custom_note', label: 'Note', default: '' },
];

/** 2.0.0: 'list' layout gone, at most 3 columns, badges became a text, color_background renamed color_page. */
export const EXTRA_SETTINGS_V2 = [
  {
    type: 'select',
    id: 'layout_style',
    label: 'Layout',
    options: [
      { value: 'grid', label: 'Grid' },
      { value: 'masonry', label: 'Masonry' },
    ],
    default: 'grid',
  },
  { type: 'range', id: 'columns', label: 'Columns', min: 1, max: 3, step: 1, default: 3 },
  { type: 'text', id: 'show_badges', label: 'Badges', default: 'all' },
  { type: 'text', id: 'custom_note', label: 'Note', default: '' },
];

export function originalOptions(edition: GenerateThemeZipOptions['edition'] = 'LITE'): GenerateThemeZipOptions {
  return {
    edition,
    version: '1.0.0',
    featuredSection: { blockTypes: ['text', 'image'] },
    extraSettings: EXTRA_SETTINGS_V1,
  };
}

export function targetOptions(edition: GenerateThemeZipOptions['edition'] = 'REGULAR'): GenerateThemeZipOptions {
  return {
    edition,
    version: '2.0.0',
    featuredSection: { blockTypes: ['text', 'quote'] },
    extraSettings: EXTRA_SETTINGS_V2,
    settingRenames: { color_background: 'color_page' },
  };
}

/** The merchant's settings_data.json: Shopify's BOM and comment header, a trailing comma, customised values. */
export const MERCHANT_SETTINGS = `\uFEFF/*
 * IMPORTANT: The contents of this file are auto-generated.
 */
{
  "current": {
    "color_accent": "#ff0000",
    "color_background": "#000000",
    "layout_style": "list",
    "columns": 4,
    "show_badges": false,
    "custom_note": "Free shipping over $50",
    "license_token": "old-token-of-the-lite-key",
    // the header section, customised
    "sections": { "header": { "type": "header", "settings": { "sticky": false } } },
    "content_for_index": [],
  },
  "presets": { "Default": { "color_accent": "#1f6feb" } }
}
`;

export const MERCHANT_INDEX = `/* customised home page */
{
  "sections": {
    "hero": { "type": "header", "settings": { "sticky": true } },
    "featured": {
      "type": "featured",
      "settings": { "title": "Our picks", "colour_mode": "dark" },
      "blocks": {
        "text-1": { "type": "text", "settings": { "heading": "Hello" } },
        "image-2": { "type": "image", "settings": { "heading": "A picture" } },
      },
      "block_order": ["image-2", "text-1"]
    },
    "banner": { "type": "legacy-banner", "settings": { "text": "Sale!" } }
  },
  "order": ["banner", "featured", "hero"],
}
`;

export const MERCHANT_LOCALE = JSON.stringify(
  {
    general: {
      password_page: { login_form_heading: 'Come on in' },
      custom: { greeting: 'Howdy' },
    },
  },
  null,
  2,
);

export interface Fixture {
  original: string;
  target: string;
  merchant: string;
}

/** Vendor files of 1.0.0 that 2.0.0 removed: the merchant left the first alone and edited the second. */
export const OLD_VENDOR_FILE = 'snippets/old-vendor.liquid';
export const OLD_EDITED_FILE = 'snippets/old-edited.liquid';

/**
 * The LITE 1.0.0 release (with two snippets 2.0.0 removed), the REGULAR 2.0.0 release and a customised LITE 1.0.0 store
 * export: settings (BOM, comments, a trailing comma), the home page, a locale, an added stylesheet and snippet, an
 * added template, theme.css edited (2.0.0 did not change it), theme.js edited (2.0.0 did) and one removed snippet
 * edited.
 */
export async function buildFixture(tempPath: (name: string) => string, folder = ''): Promise<Fixture> {
  const generated = tempPath('original-generated.zip');
  await generateThemeZip(generated, originalOptions());
  const original = await deriveZip(generated, tempPath('original.zip'), {
    [OLD_VENDOR_FILE]: '<p>{{ "general.password_page.login_form_heading" | t }}</p>\n',
    [OLD_EDITED_FILE]: '<p>old snippet</p>\n',
  });
  const target = tempPath('target.zip');
  await generateThemeZip(target, targetOptions());
  const originalFiles = await readZipFiles(original);
  const merchant = await deriveZip(
    original,
    tempPath('merchant.zip'),
    {
      'config/settings_data.json': MERCHANT_SETTINGS,
      'templates/index.json': MERCHANT_INDEX,
      'locales/en.default.json': MERCHANT_LOCALE,
      'assets/theme.css': ':root { --color-accent: #ff0000; }\n/* edited by the merchant */\n',
      'assets/theme.js': `${originalFiles.get('assets/theme.js')!.toString()}\n// edited by the merchant\n`,
      [OLD_EDITED_FILE]: '<p>old snippet, edited by the merchant</p>\n',
      'assets/custom.css': '.promo { color: red; }\n',
      'snippets/promo.liquid': '<div class="promo">{{ "general.password_page.login_form_heading" | t }}</div>\n',
      'templates/page.contact.json': JSON.stringify({
        sections: {
          main: { type: 'header', settings: { sticky: true } },
          gone: { type: 'testimonials', settings: {} },
        },
        order: ['main', 'gone'],
      }),
    },
    folder,
  );
  return { original, target, merchant };
}
