/**
 * `config/settings_data.json`: reading Shopify's JSON (a BOM and comments may precede it) and writing the license token
 * into it. The token is written by editing the text in place — the setting's value is replaced, or the setting is
 * inserted — so every other byte of the file survives: big integers (`12345678901234567890`), `1.50`, escapes such as
 * `\u00e9`, key order, indentation and the comment header.
 */
import { ThemeZipError } from './errors';

/** A Shopify JSON file split into its BOM/comment prefix and its parsed value. */
export interface ShopifyJson {
  prefix: string;
  value: unknown;
}

/**
 * Where the token goes: the new text is `head + JSON string of the token + tail`. Planned once per theme file, it
 * serves any number of tokens.
 */
export interface LicenseTokenEdit {
  readonly head: string;
  readonly tail: string;
}

export const DEFAULT_LICENSE_SETTING_ID = 'license_token';

const SETTING_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;
const BOM = '\uFEFF';
/** Stands for the token inside values we render (objects created around it); never part of the output. */
const TOKEN_PLACEHOLDER = '\u0000license-token\u0000';

/**
 * Plans the token write. `current` object → `current[settingId]`; `current` naming a preset → that preset's
 * settings (current is kept); missing or invalid `current` → a new `current` object (first in the document).
 * `null` (the theme has no settings_data.json) → a new document. Throws ThemeZipError for text that is not a JSON
 * object (after an optional BOM and comments).
 */
export function planLicenseTokenEdit(
  settingsDataText: string | null,
  settingId = DEFAULT_LICENSE_SETTING_ID,
): LicenseTokenEdit {
  assertSettingId(settingId);
  if (settingsDataText === null) {
    return splitAtPlaceholder('', render({ current: { [settingId]: TOKEN_PLACEHOLDER } }, '  ', '', '\n') + '\n', '');
  }
  const { prefix, value } = parseShopifyJson(settingsDataText);
  if (!isJsonObject(value)) {
    throw new ThemeZipError('invalid_settings_json', 'config/settings_data.json must contain a JSON object');
  }
  const document = new JsonText(settingsDataText, prefix.length);
  const root = document.readObject(prefix.length);
  return planInDocument(document, root, settingId);
}

/** The settings text with the token written in. */
export function writeLicenseToken(edit: LicenseTokenEdit, token: string): string {
  return `${edit.head}${JSON.stringify(token)}${edit.tail}`;
}

/** `planLicenseTokenEdit` and `writeLicenseToken` in one call. */
export function injectLicenseToken(
  settingsDataText: string | null,
  token: string,
  settingId = DEFAULT_LICENSE_SETTING_ID,
): string {
  return writeLicenseToken(planLicenseTokenEdit(settingsDataText, settingId), token);
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
    const start = skipSpace(text, index);
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

function skipSpace(text: string, index: number): number {
  let position = index;
  while (position < text.length && /\s/.test(text.charAt(position))) position += 1;
  return position;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---- Where to write: the rules above, on the positions of the text ----

function planInDocument(document: JsonText, root: ObjectSpan, settingId: string): LicenseTokenEdit {
  const current = lastMember(root, 'current');
  const currentKind = current ? document.kindAt(current.valueStart) : null;
  if (current && currentKind === 'string') {
    const presetName = document.readString(current.valueStart);
    if (presetName !== '') return planInPreset(document, root, presetName, settingId);
  }
  if (current && currentKind === 'object') {
    return planInObject(document, document.readObject(current.valueStart), settingId);
  }
  const fresh = { [settingId]: TOKEN_PLACEHOLDER };
  if (current) return replaceValue(document, current, fresh);
  return insertMember(document, root, 'current', fresh, 'first');
}

function planInPreset(document: JsonText, root: ObjectSpan, presetName: string, settingId: string): LicenseTokenEdit {
  const presets = lastMember(root, 'presets');
  if (!presets) {
    return insertMember(document, root, 'presets', { [presetName]: { [settingId]: TOKEN_PLACEHOLDER } }, 'last');
  }
  if (document.kindAt(presets.valueStart) !== 'object') {
    return replaceValue(document, presets, { [presetName]: { [settingId]: TOKEN_PLACEHOLDER } });
  }
  const presetsObject = document.readObject(presets.valueStart);
  const preset = lastMember(presetsObject, presetName);
  if (!preset) return insertMember(document, presetsObject, presetName, { [settingId]: TOKEN_PLACEHOLDER }, 'last');
  if (document.kindAt(preset.valueStart) !== 'object') {
    return replaceValue(document, preset, { [settingId]: TOKEN_PLACEHOLDER });
  }
  return planInObject(document, document.readObject(preset.valueStart), settingId);
}

/** The setting's value is replaced when it exists (the last one, as JSON.parse reads it), else it is appended. */
function planInObject(document: JsonText, object: ObjectSpan, settingId: string): LicenseTokenEdit {
  const setting = lastMember(object, settingId);
  if (setting) return document.splice(setting.valueStart, setting.valueEnd, '', '');
  return insertMember(document, object, settingId, TOKEN_PLACEHOLDER, 'last');
}

function replaceValue(document: JsonText, member: MemberSpan, value: unknown): LicenseTokenEdit {
  const rendered = render(value, document.indentUnit(), document.lineIndentAt(member.keyStart), document.newline());
  const [before, after] = splitRendered(rendered);
  return document.splice(member.valueStart, member.valueEnd, before, after);
}

/**
 * Adds `"key": value` to an object in the style of its members (the whitespace before a key, the colon's spacing),
 * as its first or last member.
 */
function insertMember(
  document: JsonText,
  object: ObjectSpan,
  key: string,
  value: unknown,
  where: 'first' | 'last',
): LicenseTokenEdit {
  const model = where === 'first' ? object.members[0] : object.members.at(-1);
  let lead: string;
  let colon: string;
  if (model) {
    lead = document.text.slice(model.leadStart, model.keyStart);
    // `": "` or `":"` as the model writes it (an aligned column of values is not copied).
    colon = /:[ \t]/.test(document.text.slice(model.keyEnd, model.valueStart)) ? ': ' : ':';
  } else {
    const multiline = document.isMultiline();
    lead = multiline ? `${document.newline()}${document.lineIndentAt(object.start)}${document.indentUnit()}` : '';
    colon = multiline ? ': ' : ':';
  }
  const indent = lead.includes('\n') ? lead.slice(lead.lastIndexOf('\n') + 1) : '';
  const [before, after] = splitRendered(render(value, document.indentUnit(), indent, document.newline()));
  const member = `${lead}${JSON.stringify(key)}${colon}`;
  if (!model) {
    // An empty object: the member goes right after `{`, and the closing brace gets its own line when multi-line.
    const closing = lead.includes('\n') && !document.text.slice(object.start + 1, object.end - 1).includes('\n');
    const close = closing ? `${document.newline()}${document.lineIndentAt(object.start)}` : '';
    return document.splice(object.start + 1, object.start + 1, member + before, after + close);
  }
  if (where === 'first') return document.splice(object.start + 1, object.start + 1, member + before, `${after},`);
  return document.splice(model.valueEnd, model.valueEnd, `,${member}${before}`, after);
}

/** JSON for a value we create: indented with the document's unit below `indent` and its line ends, or on one line. */
function render(value: unknown, unit: string, indent: string, newline: string): string {
  const json = unit === '' ? JSON.stringify(value) : JSON.stringify(value, null, unit);
  return json.replaceAll('\n', `${newline}${indent}`);
}

function splitRendered(rendered: string): [string, string] {
  const placeholder = JSON.stringify(TOKEN_PLACEHOLDER);
  const at = rendered.indexOf(placeholder);
  if (at < 0) throw new Error('The rendered settings value lost its token placeholder');
  return [rendered.slice(0, at), rendered.slice(at + placeholder.length)];
}

function splitAtPlaceholder(prefix: string, rendered: string, suffix: string): LicenseTokenEdit {
  const [before, after] = splitRendered(rendered);
  return { head: prefix + before, tail: after + suffix };
}

function lastMember(object: ObjectSpan, key: string): MemberSpan | undefined {
  return object.members.findLast((member) => member.key === key);
}

// ---- Positions in valid JSON text (checked with JSON.parse first) ----

interface MemberSpan {
  key: string;
  /** Just after the `{` or `,` that precedes the member: the whitespace before the key starts here. */
  leadStart: number;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  /** The index of `{`. */
  start: number;
  /** Just after `}`. */
  end: number;
  members: MemberSpan[];
}

type ValueKind = 'object' | 'array' | 'string' | 'literal';

/**
 * Reads positions in JSON text that JSON.parse accepted. Only the objects on the way to the setting are read member
 * by member; every other value is skipped without recursion, so deep nesting costs no stack.
 */
class JsonText {
  private unit: string | null = null;

  /** `jsonStart`: where the JSON starts (after a BOM and comments, which never count for the style). */
  constructor(
    readonly text: string,
    private readonly jsonStart: number,
  ) {}

  kindAt(index: number): ValueKind {
    const char = this.text.charAt(index);
    if (char === '{') return 'object';
    if (char === '[') return 'array';
    return char === '"' ? 'string' : 'literal';
  }

  readString(index: number): string {
    return JSON.parse(this.text.slice(index, this.stringEnd(index))) as string;
  }

  readObject(start: number): ObjectSpan {
    const members: MemberSpan[] = [];
    let index = this.skipWhitespace(start + 1);
    if (this.text.charAt(index) === '}') return { start, end: index + 1, members };
    let leadStart = start + 1;
    for (;;) {
      const keyStart = this.skipWhitespace(leadStart);
      const keyEnd = this.stringEnd(keyStart);
      const valueStart = this.skipWhitespace(this.skipWhitespace(keyEnd) + 1);
      const valueEnd = this.valueEnd(valueStart);
      members.push({ key: this.readString(keyStart), leadStart, keyStart, keyEnd, valueStart, valueEnd });
      index = this.skipWhitespace(valueEnd);
      if (this.text.charAt(index) === '}') return { start, end: index + 1, members };
      leadStart = index + 1;
    }
  }

  /** The text with [from, to) replaced by `before`, the token, `after`. */
  splice(from: number, to: number, before: string, after: string): LicenseTokenEdit {
    return { head: this.text.slice(0, from) + before, tail: after + this.text.slice(to) };
  }

  /** The whitespace that starts the line holding `index`. */
  lineIndentAt(index: number): string {
    const lineStart = this.text.lastIndexOf('\n', index - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(lineStart, index))?.[0] ?? '';
  }

  /** The document's indentation step: the first indented line's whitespace; '' for JSON on one line. */
  indentUnit(): string {
    this.unit ??= this.isMultiline() ? (/\n([ \t]+)\S/.exec(this.json())?.[1] ?? '  ') : '';
    return this.unit;
  }

  /** The document's line end: CRLF when its JSON uses it, else LF. */
  newline(): string {
    return this.json().includes('\r\n') ? '\r\n' : '\n';
  }

  isMultiline(): boolean {
    return this.json().trimEnd().includes('\n');
  }

  private json(): string {
    return this.text.slice(this.jsonStart);
  }

  private skipWhitespace(index: number): number {
    let position = index;
    while (position < this.text.length && ' \t\n\r'.includes(this.text.charAt(position))) position += 1;
    return position;
  }

  /** Just after the closing quote of the string starting at `index`. */
  private stringEnd(index: number): number {
    let position = index + 1;
    for (;;) {
      const char = this.text.charAt(position);
      if (char === '\\') position += 2;
      else if (char === '"') return position + 1;
      else position += 1;
    }
  }

  /** Just after the value starting at `index`: a container with everything inside it, a string or a literal. */
  private valueEnd(index: number): number {
    const kind = this.kindAt(index);
    if (kind === 'string') return this.stringEnd(index);
    let position = index;
    if (kind === 'literal') {
      while (position < this.text.length && !',}] \t\n\r'.includes(this.text.charAt(position))) position += 1;
      return position;
    }
    let depth = 0;
    for (;;) {
      const char = this.text.charAt(position);
      if (char === '"') {
        position = this.stringEnd(position);
        continue;
      }
      if (char === '{' || char === '[') depth += 1;
      else if (char === '}' || char === ']') depth -= 1;
      position += 1;
      if (depth === 0) return position;
    }
  }
}
