/**
 * The demo theme: small but realistic Shopify theme zips for the seed, tests and benchmarks, with the theme at the
 * zip root as Shopify's theme upload expects (`folder` puts it in a top-level folder instead, as some vendors ship it).
 * `paddingBytes` adds random (incompressible) assets, generated while streaming.
 */
import { randomFillSync } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yazl from 'yazl';
import type { Tier } from '@keyport/shared/domain/tiers';
import {
  LICENSE_PORTAL_SETTING_ID,
  LICENSE_SCRIPT_ASSET,
  licenseCheckScript,
  licenseSnippet,
} from './demo-theme-license';

export interface GenerateThemeZipOptions {
  edition: Tier;
  version: string;
  /** Default 'Aurora'. */
  themeName?: string;
  /** Extra random bytes as assets/media-NNN.bin files of at most 8 MiB each (stored). */
  paddingBytes?: number;
  /** How config/settings_data.json is written. Default 'plain'. */
  settingsData?: 'plain' | 'bom-comment' | 'missing';
  /** Timestamp of every entry. Default 2024-05-01T12:00:00Z (deterministic output). */
  mtime?: Date;
  /** A top-level folder holding the theme, e.g. 'aurora-pro'. Default: the theme is at the zip root. */
  folder?: string;
  /** Adds sections/featured.liquid with these block types (each with a `heading` text setting), placed on the home page
   *  template with one block of each type. Default: no such section. For upgrade fixtures (a removed section, a new
   *  block type). */
  featuredSection?: { blockTypes: string[] };
  /** Global setting ids renamed in settings_schema.json and settings_data.json, e.g. { color_accent: 'color_primary' }. */
  settingRenames?: Record<string, string>;
  /** More global settings (an 'Extras' group); their `default` values are written into settings_data.json. */
  extraSettings?: Record<string, unknown>[];
  /** Adds sections/announcement-bar.liquid, placed first on the home page (the seed's older version has it). */
  announcementBar?: boolean;
  /** The customer portal the license check calls (ADR 033), written as the `license_portal_url` setting's default and
   *  value. Default: none, and the check stays off until the store's admin fills the setting in. */
  licensePortalUrl?: string;
}

export interface GeneratedThemeZip {
  /** Size of the written zip. */
  bytes: number;
  /** '' (the theme is at the zip root), or the top-level folder given as `folder`, e.g. 'aurora-pro/'. */
  prefix: string;
  entryCount: number;
}

interface ThemeFile {
  path: string;
  content: string;
  /** Added as a stream, so yazl writes a data descriptor (bit 3) for it. */
  streamed?: boolean;
}

const PADDING_CHUNK_BYTES = 8 * 1024 * 1024;
const RANDOM_BLOCK_BYTES = 1024 * 1024;
const DEFAULT_MTIME = new Date('2024-05-01T12:00:00Z');

export const SHOPIFY_SETTINGS_COMMENT = [
  '/*',
  ' * ------------------------------------------------------------',
  ' * IMPORTANT: The contents of this file are auto-generated.',
  ' *',
  ' * This file may be updated by the Shopify admin theme editor',
  ' * or related systems. Please exercise caution as any changes',
  ' * made to this file may be overwritten.',
  ' * ------------------------------------------------------------',
  ' */',
].join('\n');

/** Writes a theme zip to `outPath`. */
export async function generateThemeZip(outPath: string, options: GenerateThemeZipOptions): Promise<GeneratedThemeZip> {
  const themeName = options.themeName ?? 'Aurora';
  const prefix = options.folder === undefined ? '' : `${options.folder}/`;
  const mtime = options.mtime ?? DEFAULT_MTIME;
  const zip = new yazl.ZipFile();
  const files = buildThemeFiles({ ...options, themeName });
  for (const file of files) addThemeFile(zip, prefix + file.path, file, mtime);
  const paddingCount = addPaddingFiles(zip, prefix, options.paddingBytes ?? 0, mtime);
  await writeZip(zip, outPath);
  return { bytes: (await stat(outPath)).size, prefix, entryCount: files.length + paddingCount };
}

function addThemeFile(zip: yazl.ZipFile, name: string, file: ThemeFile, mtime: Date): void {
  const content = Buffer.from(file.content, 'utf8');
  if (file.streamed) {
    zip.addReadStreamLazy(name, { mtime, size: content.length }, (callback) => {
      callback(null, Readable.from([content]));
    });
  } else {
    zip.addBuffer(content, name, { mtime });
  }
}

/** Adds random `assets/media-NNN.bin` files totalling `bytes`; returns how many. */
function addPaddingFiles(zip: yazl.ZipFile, prefix: string, bytes: number, mtime: Date): number {
  let count = 0;
  for (let remaining = bytes; remaining > 0; remaining -= PADDING_CHUNK_BYTES) {
    const size = Math.min(remaining, PADDING_CHUNK_BYTES);
    const name = `${prefix}assets/media-${String(count).padStart(3, '0')}.bin`;
    zip.addReadStreamLazy(name, { mtime, size, compress: false }, (callback) => {
      callback(null, createRandomStream(size));
    });
    count += 1;
  }
  return count;
}

function createRandomStream(size: number): Readable {
  return Readable.from(generateRandomBlocks(size), { objectMode: false });
}

function* generateRandomBlocks(size: number): Generator<Buffer, void, undefined> {
  for (let remaining = size; remaining > 0; remaining -= RANDOM_BLOCK_BYTES) {
    yield randomFillSync(Buffer.allocUnsafe(Math.min(remaining, RANDOM_BLOCK_BYTES)));
  }
}

async function writeZip(zip: yazl.ZipFile, outPath: string): Promise<void> {
  const failed = new Promise<never>((_resolve, reject) => zip.once('error', reject));
  const written = pipeline(zip.outputStream, createWriteStream(outPath));
  zip.end();
  await Promise.race([written, failed]);
}

function buildThemeFiles(options: GenerateThemeZipOptions & { themeName: string }): ThemeFile[] {
  const files: ThemeFile[] = [
    { path: 'layout/theme.liquid', content: themeLayout() },
    { path: 'layout/password.liquid', content: passwordLayout() },
    {
      path: 'templates/index.json',
      content: toJson(withAnnouncement(indexTemplate(options.featuredSection?.blockTypes), options.announcementBar)),
    },
    { path: 'templates/product.json', content: toJson(productTemplate()) },
    { path: 'templates/collection.json', content: toJson(collectionTemplate()) },
    { path: 'sections/header.liquid', content: headerSection() },
    { path: 'sections/footer.liquid', content: footerSection() },
    { path: 'snippets/license-check.liquid', content: licenseSnippet(options.edition, options.version) },
    { path: `assets/${LICENSE_SCRIPT_ASSET}`, content: licenseCheckScript() },
    { path: 'assets/theme.css', content: themeCss() },
    { path: 'assets/theme.js', content: themeJs(options.version), streamed: true },
    { path: 'config/settings_schema.json', content: toJson(settingsSchema(options)) },
  ];
  if (options.announcementBar) {
    files.push({ path: 'sections/announcement-bar.liquid', content: announcementSection() });
  }
  if (options.featuredSection) {
    files.push({ path: 'sections/featured.liquid', content: featuredSection(options.featuredSection.blockTypes) });
  }
  const settingsData = settingsDataText(options.settingsData ?? 'plain', options);
  if (settingsData !== null) files.push({ path: 'config/settings_data.json', content: settingsData });
  files.push({ path: 'locales/en.default.json', content: toJson(englishLocale()) });
  return files;
}

function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function settingsSchema(options: GenerateThemeZipOptions & { themeName: string }): unknown[] {
  const sections: unknown[] = [
    {
      name: 'theme_info',
      theme_name: options.themeName,
      theme_version: options.version,
      theme_author: 'Keyport Themes',
      theme_documentation_url: 'https://example.com/docs',
      theme_support_url: 'https://example.com/support',
    },
    {
      name: 'License',
      settings: [
        { type: 'header', content: 'License' },
        {
          type: 'text',
          id: 'license_token',
          label: 'License token',
          info: 'Filled in automatically when you download the theme from the customer portal.',
        },
        {
          type: 'text',
          id: LICENSE_PORTAL_SETTING_ID,
          label: 'License portal',
          info: 'Where the theme checks its license. Leave as it is.',
          ...(options.licensePortalUrl ? { default: options.licensePortalUrl } : {}),
        },
      ],
    },
    {
      name: 'Colors',
      settings: [
        { type: 'color', id: 'color_accent', label: 'Accent', default: '#1f6feb' },
        { type: 'color', id: 'color_background', label: 'Background', default: '#ffffff' },
      ],
    },
  ];
  if (options.extraSettings) sections.push({ name: 'Extras', settings: options.extraSettings });
  if (options.settingRenames) renameSettingIds(sections, options.settingRenames);
  if (options.edition === 'PRO') {
    sections.push({
      name: 'Pro features',
      settings: [{ type: 'checkbox', id: 'enable_mega_menu', label: 'Enable mega menu', default: true }],
    });
  }
  return sections;
}

function renameSettingIds(groups: unknown[], renames: Record<string, string>): void {
  for (const group of groups) {
    const settings = (group as { settings?: { id?: string }[] }).settings ?? [];
    for (const setting of settings) {
      if (setting.id !== undefined) setting.id = renames[setting.id] ?? setting.id;
    }
  }
}

function settingsDataText(
  kind: 'plain' | 'bom-comment' | 'missing',
  options: Pick<GenerateThemeZipOptions, 'settingRenames' | 'extraSettings' | 'licensePortalUrl'> = {},
): string | null {
  if (kind === 'missing') return null;
  const rename = (id: string) => options.settingRenames?.[id] ?? id;
  const extras = Object.fromEntries(
    (options.extraSettings ?? [])
      .filter((setting) => typeof setting.id === 'string' && setting.default !== undefined)
      .map((setting) => [rename(setting.id as string), setting.default]),
  );
  const json = toJson({
    current: {
      [rename('color_accent')]: '#1f6feb',
      [rename('color_background')]: '#ffffff',
      ...extras,
      license_token: '',
      ...(options.licensePortalUrl ? { [LICENSE_PORTAL_SETTING_ID]: options.licensePortalUrl } : {}),
      sections: { header: { type: 'header', settings: { sticky: true } } },
      content_for_index: [],
    },
    presets: { Default: { [rename('color_accent')]: '#1f6feb', [rename('color_background')]: '#ffffff' } },
  });
  return kind === 'bom-comment' ? `\uFEFF${SHOPIFY_SETTINGS_COMMENT}\n${json}` : json;
}

function themeLayout(): string {
  return `<!doctype html>
<html lang="{{ request.locale.iso_code }}">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width,initial-scale=1">
    <title>{{ page_title }}{% unless page_title contains shop.name %} &ndash; {{ shop.name }}{% endunless %}</title>
    {{ 'theme.css' | asset_url | stylesheet_tag }}
    {{ content_for_header }}
  </head>
  <body>
    {% render 'license-check' %}
    {% section 'header' %}
    <main id="MainContent" role="main">{{ content_for_layout }}</main>
    {% section 'footer' %}
    <script src="{{ 'theme.js' | asset_url }}" defer></script>
  </body>
</html>
`;
}

function passwordLayout(): string {
  return `<!doctype html>
<html lang="{{ request.locale.iso_code }}">
  <head>
    <meta charset="utf-8">
    <title>{{ shop.name }}</title>
    {{ 'theme.css' | asset_url | stylesheet_tag }}
    {{ content_for_header }}
  </head>
  <body class="password">{{ content_for_layout }}</body>
</html>
`;
}

function indexTemplate(featuredBlockTypes?: string[]): unknown {
  if (featuredBlockTypes === undefined) {
    return {
      sections: { hero: { type: 'header', settings: {} } },
      order: ['hero'],
    };
  }
  const blocks = Object.fromEntries(
    featuredBlockTypes.map((type, index) => [
      `${type}-${index + 1}`,
      { type, settings: { heading: `${type} heading` } },
    ]),
  );
  return {
    sections: {
      hero: { type: 'header', settings: {} },
      featured: { type: 'featured', settings: { title: 'Featured' }, blocks, block_order: Object.keys(blocks) },
    },
    order: ['hero', 'featured'],
  };
}

function withAnnouncement(template: unknown, announcement: boolean | undefined): unknown {
  if (!announcement) return template;
  const { sections, order } = template as { sections: Record<string, unknown>; order: string[] };
  return {
    sections: { announcement: { type: 'announcement-bar', settings: { text: 'Free shipping' } }, ...sections },
    order: ['announcement', ...order],
  };
}

function announcementSection(): string {
  return `<div class="announcement-bar">{{ section.settings.text | escape }}</div>

{% schema %}
{ "name": "Announcement bar", "settings": [{ "type": "text", "id": "text", "label": "Text", "default": "Free shipping" }] }
{% endschema %}
`;
}

function featuredSection(blockTypes: string[]): string {
  const schema = {
    name: 'Featured',
    settings: [{ type: 'text', id: 'title', label: 'Title', default: 'Featured' }],
    blocks: blockTypes.map((type) => ({
      type,
      name: type,
      settings: [{ type: 'text', id: 'heading', label: 'Heading' }],
    })),
    presets: [{ name: 'Featured' }],
  };
  return `<section class="featured">
  <h2>{{ section.settings.title | escape }}</h2>
  {% for block in section.blocks %}
    <div class="featured__{{ block.type }}" {{ block.shopify_attributes }}>{{ block.settings.heading | escape }}</div>
  {% endfor %}
</section>

{% schema %}
${JSON.stringify(schema, null, 2)}
{% endschema %}
`;
}

function productTemplate(): unknown {
  return { sections: { main: { type: 'header', settings: {} } }, order: ['main'] };
}

function collectionTemplate(): unknown {
  return { sections: { main: { type: 'header', settings: {} } }, order: ['main'] };
}

function headerSection(): string {
  return `<header class="site-header">
  <a href="{{ routes.root_url }}" class="site-header__logo">{{ shop.name }}</a>
  <nav>{% for link in linklists.main-menu.links %}<a href="{{ link.url }}">{{ link.title }}</a>{% endfor %}</nav>
</header>

{% schema %}
{ "name": "Header", "settings": [{ "type": "checkbox", "id": "sticky", "label": "Sticky header", "default": true }] }
{% endschema %}
`;
}

function footerSection(): string {
  return `<footer class="site-footer"><small>&copy; {{ 'now' | date: '%Y' }} {{ shop.name }}</small></footer>

{% schema %}
{ "name": "Footer", "settings": [] }
{% endschema %}
`;
}

function themeCss(): string {
  return `:root { --color-accent: #1f6feb; --color-background: #ffffff; }
body { margin: 0; font-family: system-ui, sans-serif; background: var(--color-background); }
.site-header { display: flex; justify-content: space-between; padding: 1rem 2rem; }
.license-notice { padding: 0.75rem; background: #fff4e5; color: #663c00; }
`;
}

function themeJs(version: string): string {
  return `/* Theme script v${version} */
document.documentElement.classList.add('js');
window.themeVersion = ${JSON.stringify(version)};
`;
}

function englishLocale(): unknown {
  return { general: { password_page: { login_form_heading: 'Enter store using password' } } };
}
