import { ThemeZipError } from './errors';

/** A Shopify JSON file split into its BOM/comment prefix and its parsed value. */
export interface ShopifyJson {
  prefix: string;
  value: unknown;
}

type JsonObject = Record<string, unknown>;

const SETTING_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const BOM = '\uFEFF';

/**
 * Writes the license token into `config/settings_data.json` text.
 * `current` object → `current[settingId]`; `current` naming a preset → that preset's
 * settings (current is kept); missing/invalid `current` → a new `current` object.
 * The BOM/comment prefix and every other field are kept. `null` (no file) → a new document.
 */
export function injectLicenseToken(
  settingsDataText: string | null,
  token: string,
  settingId = 'license_token',
): string {
  assertSettingId(settingId);
  if (settingsDataText === null) return formatJson('', { current: { [settingId]: token } });
  const { prefix, value } = parseShopifyJson(settingsDataText);
  if (!isJsonObject(value)) {
    throw new ThemeZipError('invalid_settings_json', 'config/settings_data.json must contain a JSON object');
  }
  return formatJson(prefix, setTokenInDocument(value, token, settingId));
}

/** Parses Shopify JSON that may start with a UTF-8 BOM and `/* … *\/` or `//` comments. */
export function parseShopifyJson(text: string): ShopifyJson {
  const prefixLength = measureCommentPrefix(text);
  try {
    return { prefix: text.slice(0, prefixLength), value: JSON.parse(text.slice(prefixLength)) };
  } catch (error) {
    throw new ThemeZipError('invalid_settings_json', 'The settings file is not valid JSON', { cause: error });
  }
}

function assertSettingId(settingId: string): void {
  if (!SETTING_ID_PATTERN.test(settingId) || settingId === '__proto__') {
    throw new RangeError(`Invalid theme setting id: ${settingId}`);
  }
}

/** Length of the leading BOM, whitespace and comments (the JSON starts right after). */
function measureCommentPrefix(text: string): number {
  let index = text.startsWith(BOM) ? BOM.length : 0;
  for (;;) {
    const start = skipWhitespace(text, index);
    if (text.startsWith('/*', start)) {
      const end = text.indexOf('*/', start + 2);
      if (end < 0) throw new ThemeZipError('invalid_settings_json', 'The settings file has an unclosed comment');
      index = end + 2;
    } else if (text.startsWith('//', start)) {
      const end = text.indexOf('\n', start);
      index = end < 0 ? text.length : end + 1;
    } else {
      return start;
    }
  }
}

function skipWhitespace(text: string, index: number): number {
  let position = index;
  while (position < text.length && /\s/.test(text.charAt(position))) position += 1;
  return position;
}

function setTokenInDocument(document: JsonObject, token: string, settingId: string): JsonObject {
  const current = getOwn(document, 'current');
  if (typeof current === 'string' && current !== '') {
    const presets = ensureOwnObject(document, 'presets');
    setOwn(ensureOwnObject(presets, current), settingId, token);
    return document;
  }
  if (isJsonObject(current)) {
    setOwn(current, settingId, token);
    return document;
  }
  const fresh = { [settingId]: token };
  if (Object.hasOwn(document, 'current')) {
    setOwn(document, 'current', fresh);
    return document;
  }
  return { current: fresh, ...document };
}

function formatJson(prefix: string, value: unknown): string {
  return `${prefix}${JSON.stringify(value, null, 2)}\n`;
}

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property only: never reads through the prototype (e.g. a preset named `__proto__`). */
function getOwn(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

function ensureOwnObject(parent: JsonObject, key: string): JsonObject {
  const existing = getOwn(parent, key);
  if (isJsonObject(existing)) return existing;
  const created: JsonObject = {};
  setOwn(parent, key, created);
  return created;
}

/** Defines a plain data property, so `__proto__` is an ordinary key as in parsed JSON. */
function setOwn(object: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
