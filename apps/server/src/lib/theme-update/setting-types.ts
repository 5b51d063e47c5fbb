/**
 * Does a merchant's value fit the target theme's setting? One rule per Shopify input setting type; a value that does
 * not fit is dropped (and reported with the reason), never coerced.
 */

/** A setting of a settings_schema.json group or a section/block schema. */
export interface SettingDefinition {
  type: string;
  id: string;
  options?: { value: unknown }[];
  min?: number;
  max?: number;
  /** `color_scheme_group`: the settings of each scheme. */
  definition?: unknown;
}

/** What a value is checked against besides its own definition. */
export interface SettingContext {
  /** The new version's colour scheme ids (a `color_scheme` setting names one of them). */
  colorSchemes?: ReadonlySet<string>;
}

const COLOR_PATTERN =
  /^(#[0-9a-f]{3,4}|#[0-9a-f]{6}|#[0-9a-f]{8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\)|transparent)$/i;

const STRING_TYPES = new Set([
  'text',
  'textarea',
  'html',
  'richtext',
  'inline_richtext',
  'liquid',
  'url',
  'video_url',
  'image_picker',
  'video',
  'font_picker',
  'collection',
  'product',
  'blog',
  'page',
  'article',
  'link_list',
  'color_background',
  'metaobject',
  'text_alignment',
]);
const LIST_TYPES = new Set(['collection_list', 'product_list', 'metaobject_list']);

/** null when `value` fits `setting`, else why it does not (shown in the report). */
export function checkSettingValue(
  setting: SettingDefinition,
  value: unknown,
  context: SettingContext = {},
): string | null {
  const { type } = setting;
  if (type === 'color_scheme') {
    if (typeof value !== 'string') return 'not a colour scheme';
    const schemes = context.colorSchemes;
    return schemes === undefined || schemes.size === 0 || schemes.has(value)
      ? null
      : `the new version has no colour scheme "${value}"`;
  }
  if (type === 'checkbox') return typeof value === 'boolean' ? null : 'not true or false';
  if (type === 'color') {
    if (typeof value !== 'string') return 'not a colour';
    return value === '' || COLOR_PATTERN.test(value.trim()) ? null : 'not a colour';
  }
  if (type === 'select' || type === 'radio') {
    const allowed = (setting.options ?? []).map((option) => option.value);
    return allowed.some((option) => option === value) ? null : 'not one of the options';
  }
  if (type === 'range' || type === 'number') {
    if (type === 'number' && value === null) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'not a number';
    if (setting.min !== undefined && value < setting.min) return `below the minimum ${setting.min}`;
    if (setting.max !== undefined && value > setting.max) return `above the maximum ${setting.max}`;
    return null;
  }
  if (type === 'text_alignment') {
    return ['left', 'center', 'right'].includes(value as string) ? null : 'not left, center or right';
  }
  if (type === 'color_scheme_group') return isPlainObject(value) ? null : 'not a colour scheme group';
  if (LIST_TYPES.has(type)) {
    return Array.isArray(value) && value.every((item) => typeof item === 'string') ? null : 'not a list';
  }
  if (STRING_TYPES.has(type)) return typeof value === 'string' ? null : 'not text';
  // A type this check does not know (a newer Shopify input): any JSON value Shopify stored is kept.
  return null;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The settings with an id from a list of setting definitions (headers and paragraphs have none). */
export function settingsById(settings: unknown): Map<string, SettingDefinition> {
  const byId = new Map<string, SettingDefinition>();
  if (!Array.isArray(settings)) return byId;
  for (const setting of settings) {
    if (isPlainObject(setting) && typeof setting.id === 'string' && typeof setting.type === 'string') {
      byId.set(setting.id, setting as unknown as SettingDefinition);
    }
  }
  return byId;
}
