/**
 * Real themes in tests (issue 20): Shopify's Dawn 12.0.0, 14.0.0 and 15.3.0 from `../shared/fixtures/themes`
 * (its README), and a merchant's export of one of them customised as a merchant does it in the theme editor and the
 * code editor: settings changed (a colour of the first colour scheme too), an app embed, a reordered home page, a
 * removed block, an app block, a new template, an added snippet and stylesheet, two edited core files and a few
 * translations. Shopify writes the JSON it saves with its comment header, `current` as an object.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'jsonc-parser';
import type { MigrationMap } from '@keyport/shared/contracts/migration-map';
import { SHOPIFY_SETTINGS_COMMENT } from '../../src/db/demo-theme';
import { deriveZip, readZipFiles } from '../../src/lib/theme-update/fixtures.test-helpers';

export const DAWN_VERSIONS = ['12.0.0', '14.0.0', '15.3.0'] as const;
export type DawnVersion = (typeof DAWN_VERSIONS)[number];

/** ../shared/fixtures/themes, relative to the repository (the worktree). */
export const DAWN_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/fixtures/themes',
);

export const dawnZip = (version: DawnVersion) => path.join(DAWN_DIR, `dawn-v${version}.zip`);

/** Whether the real themes are here (CI always has them); tests that need them skip with this message otherwise. */
export const HAS_DAWN = DAWN_VERSIONS.every((version) => existsSync(dawnZip(version)));
export const NO_DAWN_MESSAGE = `skipped: the real Dawn themes are not at ${DAWN_DIR} (../shared/fixtures/themes)`;

/**
 * Dawn 14.0.0's migration map: Dawn 13 renamed the colour schemes (background-1 → scheme-1 …), as a vendor's staff
 * would upload it with 14.0.0.
 */
export const DAWN_14_MIGRATION_MAP: MigrationMap = {
  color_schemes: {
    'background-1': 'scheme-1',
    'background-2': 'scheme-2',
    inverse: 'scheme-3',
    'accent-1': 'scheme-4',
    'accent-2': 'scheme-5',
  },
};

/** What the merchant did, to check each is kept or reported. */
export const DAWN_CUSTOM = {
  settings: {
    logo_width: 120,
    cart_type: 'drawer',
    predictive_search_enabled: false,
    social_instagram_link: 'https://instagram.com/harbor.goods',
  },
  schemeBackground: '#FFF8F0',
  appEmbed: {
    key: '16914521985375683641',
    value: {
      type: 'shopify://apps/judge-me-reviews/blocks/judgeme_core/61ccd3b1-a9f2-4160-9fe9-4fec8413e5d8',
      disabled: false,
      settings: {},
    },
  },
  homeOrderFirst: 'featured_collection',
  removedBlock: { section: 'image_banner', block: 'button' },
  appBlock: {
    key: 'judge_me_reviews_badge',
    value: {
      type: 'shopify://apps/judge-me-reviews/blocks/preview_badge/61ccd3b1-a9f2-4160-9fe9-4fec8413e5d8',
      settings: {},
    },
  },
  newTemplate: 'templates/page.faq.json',
  addedFiles: ['snippets/harbor-badge.liquid', 'assets/harbor.css'],
  editedFiles: ['sections/header.liquid', 'assets/base.css'],
  texts: [
    { file: 'locales/en.default.json', path: ['products', 'product', 'add_to_cart'], value: 'Add to bag' },
    {
      file: 'locales/en.default.json',
      path: ['general', 'password_page', 'login_form_heading'],
      value: 'Members only — enter the password:',
    },
    { file: 'locales/fr.json', path: ['products', 'product', 'add_to_cart'], value: 'Ajouter au sac' },
  ],
} as const;

const FAQ_TEMPLATE = {
  sections: {
    main: { type: 'main-page', settings: { padding_top: 28, padding_bottom: 28 } },
    faq: {
      type: 'collapsible-content',
      blocks: {
        shipping: { type: 'collapsible_row', settings: { heading: 'Do you ship abroad?', icon: 'truck' } },
        returns: { type: 'collapsible_row', settings: { heading: 'Can I return an item?', icon: 'return' } },
      },
      block_order: ['shipping', 'returns'],
      settings: { heading: 'Questions' },
    },
  },
  order: ['main', 'faq'],
};

/** Shopify's way of writing a JSON file it saved: its comment header, two-space indentation. */
const shopifyJson = (value: unknown) => `${SHOPIFY_SETTINGS_COMMENT}\n${JSON.stringify(value, null, 2)}\n`;

type Json = Record<string, unknown>;
const json = (bytes: Buffer | undefined): Json => parse(bytes!.toString('utf8')) as Json;

/** Writes `outPath`: the Dawn release zip at `releasePath` customised as described in `DAWN_CUSTOM`. */
export async function customiseDawn(releasePath: string, outPath: string): Promise<string> {
  const files = await readZipFiles(releasePath);
  const changes: Record<string, string | Buffer> = {};

  const settings = json(files.get('config/settings_data.json'));
  const presets = settings.presets as Record<string, Json>;
  const current: Json = structuredClone(
    typeof settings.current === 'string' ? presets[settings.current]! : (settings.current as Json),
  );
  Object.assign(current, DAWN_CUSTOM.settings);
  const schemes = current.color_schemes as Record<string, { settings: Json }>;
  const firstScheme = Object.keys(schemes)[0]!;
  schemes[firstScheme]!.settings.background = DAWN_CUSTOM.schemeBackground;
  current.blocks = { [DAWN_CUSTOM.appEmbed.key]: DAWN_CUSTOM.appEmbed.value };
  changes['config/settings_data.json'] = shopifyJson({ current, presets });

  const index = json(files.get('templates/index.json'));
  const order = (index.order as string[]).filter((key) => key !== DAWN_CUSTOM.homeOrderFirst);
  index.order = [DAWN_CUSTOM.homeOrderFirst, ...order];
  const banner = (index.sections as Record<string, Json>)[DAWN_CUSTOM.removedBlock.section]!;
  delete (banner.blocks as Json)[DAWN_CUSTOM.removedBlock.block];
  banner.block_order = (banner.block_order as string[]).filter((key) => key !== DAWN_CUSTOM.removedBlock.block);
  changes['templates/index.json'] = shopifyJson(index);

  const product = json(files.get('templates/product.json'));
  const main = (product.sections as Record<string, Json>).main!;
  (main.blocks as Json)[DAWN_CUSTOM.appBlock.key] = DAWN_CUSTOM.appBlock.value;
  main.block_order = [...(main.block_order as string[]), DAWN_CUSTOM.appBlock.key];
  changes['templates/product.json'] = shopifyJson(product);

  changes[DAWN_CUSTOM.newTemplate] = shopifyJson(FAQ_TEMPLATE);
  changes['snippets/harbor-badge.liquid'] = '<span class="harbor-badge">{{ badge_text | escape }}</span>\n';
  changes['assets/harbor.css'] = '.harbor-badge {\n  border-radius: 999px;\n  padding: 0.2rem 0.6rem;\n}\n';

  const header = files.get('sections/header.liquid')!.toString('utf8');
  changes['sections/header.liquid'] = header.replace(
    '{% schema %}',
    "{% comment %} Harbor: the badge beside the logo {% endcomment %}\n{% render 'harbor-badge', badge_text: 'New' %}\n\n{% schema %}",
  );
  changes['assets/base.css'] = Buffer.concat([
    files.get('assets/base.css')!,
    Buffer.from('\n/* Harbor */\n.header__heading-logo {\n  filter: saturate(1.2);\n}\n'),
  ]);

  const locales = new Map<string, Json>();
  for (const text of DAWN_CUSTOM.texts) {
    const locale = locales.get(text.file) ?? json(files.get(text.file));
    let node = locale;
    for (const key of text.path.slice(0, -1)) node = node[key] as Json;
    node[text.path.at(-1)!] = text.value;
    locales.set(text.file, locale);
  }
  // The theme editor saves a locale as Shopify formats it (the same JSON, maybe not the same bytes).
  for (const [file, locale] of locales) changes[file] = `${JSON.stringify(locale, null, 2)}\n`;

  return deriveZip(releasePath, outPath, changes);
}
