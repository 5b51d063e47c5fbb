/**
 * Shopify's JSON dialect for theme files: a UTF-8 BOM, `//` and `/* *\/` comments anywhere outside strings and
 * trailing commas are accepted (the theme editor and `shopify theme pull` produce and accept them).
 */
import { ThemeUpgradeError } from './errors';

export interface LenientJson {
  /** The BOM, comments and whitespace before the value (kept when the file is written again). */
  leading: string;
  value: unknown;
}

/** Parses one theme JSON file; throws ThemeUpgradeError('invalid_theme_json') naming the file. */
export function parseLenientJson(text: string, fileName: string): LenientJson {
  const leadingEnd = measureLeading(text);
  try {
    return { leading: text.slice(0, leadingEnd), value: JSON.parse(toStrictJson(text.slice(leadingEnd))) };
  } catch (error) {
    throw new ThemeUpgradeError('invalid_theme_json', `${fileName} is not valid JSON`, { cause: error });
  }
}

/** Length of the BOM, whitespace and comments before the first JSON token. */
function measureLeading(text: string): number {
  let index = text.startsWith('\uFEFF') ? 1 : 0;
  for (;;) {
    while (index < text.length && /\s/.test(text.charAt(index))) index += 1;
    if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      if (end < 0) return index;
      index = end + 2;
    } else if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end + 1;
    } else {
      return index;
    }
  }
}

/** Removes comments and trailing commas outside strings; everything else is kept byte for byte. */
export function toStrictJson(text: string): string {
  let out = '';
  let index = 0;
  let pendingComma = -1;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '"') {
      const end = endOfString(text, index);
      out += text.slice(index, end);
      index = end;
      pendingComma = -1;
    } else if (text.startsWith('//', index)) {
      const end = text.indexOf('\n', index);
      index = end < 0 ? text.length : end;
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      if (end < 0) throw new SyntaxError('Unclosed comment');
      index = end + 2;
    } else if (char === ',') {
      pendingComma = out.length;
      out += char;
      index += 1;
    } else if (char === '}' || char === ']') {
      if (pendingComma >= 0) out = out.slice(0, pendingComma) + out.slice(pendingComma + 1);
      pendingComma = -1;
      out += char;
      index += 1;
    } else {
      if (!/\s/.test(char)) pendingComma = -1;
      out += char;
      index += 1;
    }
  }
  return out;
}

function endOfString(text: string, start: number): number {
  let index = start + 1;
  while (index < text.length) {
    const char = text.charAt(index);
    if (char === '\\') index += 2;
    else if (char === '"') return index + 1;
    else index += 1;
  }
  throw new SyntaxError('Unterminated string');
}
